package io.ackscope.tcp;

/** 32-bit TCP sequence arithmetic on values held in longs (RFC 1982 style, as Wireshark's GT_SEQ and friends). */
final class Seq {
    static final long MASK = 0xffff_ffffL;

    private Seq() {
    }

    static long add(long a, long b) {
        return (a + b) & MASK;
    }

    /** Signed 32-bit difference a - b. */
    static int diff(long a, long b) {
        return (int) (a - b);
    }

    static boolean gt(long a, long b) {
        return diff(a, b) > 0;
    }

    static boolean ge(long a, long b) {
        return diff(a, b) >= 0;
    }

    static boolean lt(long a, long b) {
        return diff(a, b) < 0;
    }

    static boolean le(long a, long b) {
        return diff(a, b) <= 0;
    }
}
