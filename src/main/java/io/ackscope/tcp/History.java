package io.ackscope.tcp;

/**
 * Zeek-style connection history: letters in order of first occurrence, upper case for the originator. S, H, A, D,
 * F, R, Q, I are recorded once per side; T (retransmission) and W (zero window) at 1, 10, 100, ... occurrences.
 * Sides are recorded as "a" (sender of the connection's first frame) or "b" and mapped to originator/responder
 * only when rendered, because the originator may be decided after the first letters.
 */
final class History {
    private static final String ONCE_LETTERS = "SHADFRQI";
    /** Bounds the history: 8 once-letters and 2 log-scale letters per side fit with room to spare. */
    private static final int MAX_EVENTS = 48;

    private final byte[] events = new byte[MAX_EVENTS];   // letter, bit 7 set = from a
    private int length;
    private int onceSeen;                                   // bit per (letter, side)
    private final int[] retransmissions = new int[2];
    private final int[] zeroWindows = new int[2];

    void once(char letter, boolean fromA) {
        int bit = 1 << (ONCE_LETTERS.indexOf(letter) * 2 + (fromA ? 1 : 0));
        if ((onceSeen & bit) == 0) {
            onceSeen |= bit;
            add(letter, fromA);
        }
    }

    void retransmission(boolean fromA) {
        logScale('T', fromA, retransmissions);
    }

    void zeroWindow(boolean fromA) {
        logScale('W', fromA, zeroWindows);
    }

    private void logScale(char letter, boolean fromA, int[] counts) {
        int n = ++counts[fromA ? 0 : 1];
        for (long p = 1; p <= n; p *= 10) {
            if (p == n) {
                add(letter, fromA);
                return;
            }
        }
    }

    private void add(char letter, boolean fromA) {
        if (length < events.length) {
            events[length++] = (byte) (letter | (fromA ? 0x80 : 0));
        }
    }

    /** The history with upper case for the originator. */
    String render(boolean originatorIsA) {
        char[] h = new char[length];
        for (int i = 0; i < length; i++) {
            boolean fromA = (events[i] & 0x80) != 0;
            char c = (char) (events[i] & 0x7f);
            h[i] = fromA == originatorIsA ? c : Character.toLowerCase(c);
        }
        return new String(h);
    }
}
