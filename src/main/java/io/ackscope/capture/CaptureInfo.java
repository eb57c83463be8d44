package io.ackscope.capture;

/** File-level description of a capture (to be completed by the readers). */
public final class CaptureInfo {
}
