package io.ackscope.capture;

/**
 * A problem that ended reading without being an exception, such as a file cut inside its final record.
 *
 * @param offset byte offset in the decompressed stream where the incomplete record starts
 * @param reason what was found, for example "file ends 12 bytes into a 16-byte record header"
 */
public record CaptureProblem(long offset, String reason) {
}
