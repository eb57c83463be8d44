package io.ackscope.capture;

/** Compression around a capture, detected from its first bytes (never from the file name). */
public enum Compression {
    NONE,
    /** RFC 1952 gzip, magic 1f 8b; concatenated members are read as one stream. */
    GZIP,
    /** Zstandard, frame magic 28 b5 2f fd; several frames are read as one stream. */
    ZSTD,
    /** bzip2, "BZh" followed by the block-size digit; concatenated streams are read as one. */
    BZIP2;

    /** Detects compression from up to 4 leading bytes; NONE if none of the known magics matches. */
    static Compression detect(byte[] b, int len) {
        if (len >= 2 && (b[0] & 0xff) == 0x1f && (b[1] & 0xff) == 0x8b) {
            return GZIP;
        }
        if (len >= 4 && (b[0] & 0xff) == 0x28 && (b[1] & 0xff) == 0xb5 && (b[2] & 0xff) == 0x2f
                && (b[3] & 0xff) == 0xfd) {
            return ZSTD;
        }
        if (len >= 4 && b[0] == 'B' && b[1] == 'Z' && b[2] == 'h' && b[3] >= '1' && b[3] <= '9') {
            return BZIP2;
        }
        return NONE;
    }

    /** Lower-case name as used in outputs ("none", "gzip", ...). */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
