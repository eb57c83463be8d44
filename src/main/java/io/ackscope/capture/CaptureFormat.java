package io.ackscope.capture;

/** Container format of a capture, detected from its magic number (never from the file name). */
public enum CaptureFormat {
    /** Classic libpcap format (magic a1b2c3d4 / a1b23c4d in either byte order). */
    PCAP,
    /** pcapng (Section Header Block magic 0a0d0d0a). */
    PCAPNG;

    /** "pcap" or "pcapng". */
    public String label() {
        return this == PCAP ? "pcap" : "pcapng";
    }
}
