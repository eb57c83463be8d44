package io.ackscope.decode;

/** How far a packet decoded. Anything but {@link #OK} comes with the {@link Layer} where decoding stopped. */
public enum DecodeStatus {
    /** Every layer ackscope understands was decoded (the payload may still be cut by the snap length). */
    OK,
    /** A header was cut by the capture's snap length (captured length shorter than the header). */
    TRUNCATED,
    /** A header violates its specification (for example a TCP data offset below 5, an IPv4 IHL below 5). */
    MALFORMED,
    /** A link type, ethertype or protocol that ackscope does not decode. */
    UNSUPPORTED
}
