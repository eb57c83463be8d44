package io.ackscope.tcp;

import static io.ackscope.decode.PacketDecoder.ACK;
import static io.ackscope.decode.PacketDecoder.FIN;
import static io.ackscope.decode.PacketDecoder.RST;
import static io.ackscope.decode.PacketDecoder.SYN;

/**
 * Zeek-style connection history: letters in order of first occurrence, upper case for the originator. S, H, A, D,
 * F, R, Q, I are recorded once per side; T (retransmission) and W (zero window) at 1, 10, 100, ... occurrences.
 * Sides are recorded as "a" (sender of the connection's first frame) or "b" and mapped to originator/responder
 * only when rendered, because the originator may be decided after the first letters.
 */
final class History implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private static final String ONCE_LETTERS = "SHADFRQI";
    /** Bounds the history: 8 once-letters and 2 log-scale letters per side fit with room to spare. */
    private static final int MAX_EVENTS = 48;

    private byte[] events = new byte[4];                   // letter, bit 7 set = from a; grows to MAX_EVENTS
    private int length;
    private int onceSeen;                                   // bit per (letter, side)
    private int retransmissionsA, retransmissionsB, zeroWindowsA, zeroWindowsB;

    /** Held state read back ({@link TcpEngine#resume}) must index its array as this class does. */
    private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
        in.defaultReadObject();
        if (events == null || events.length > MAX_EVENTS || length < 0 || length > events.length) {
            throw new java.io.InvalidObjectException("malformed history");
        }
    }

    /** Records the letters of one segment: its TCP flags, payload length and sequence-analysis flags. */
    void frame(int tcpFlags, int payloadLength, int analysisFlags, boolean fromA) {
        int f = tcpFlags;
        if ((f & SYN) != 0 && (f & (FIN | RST)) != 0) {
            once('Q', fromA);
        }
        if ((f & (SYN | RST)) == (SYN | RST)) {
            once('I', fromA);
        }
        if ((f & (SYN | ACK)) == SYN) {
            once('S', fromA);
        } else if ((f & (SYN | ACK)) == (SYN | ACK)) {
            once('H', fromA);
        }
        if (payloadLength > 0) {
            once('D', fromA);
        } else if ((f & (SYN | FIN | RST | ACK)) == ACK) {
            once('A', fromA);
        }
        if ((f & FIN) != 0) {
            once('F', fromA);
        }
        if ((f & RST) != 0) {
            once('R', fromA);
        }
        if ((analysisFlags & FrameAnalysis.ANY_RETRANSMISSION) != 0) {
            retransmission(fromA);
        }
        if ((analysisFlags & FrameAnalysis.ZERO_WINDOW) != 0) {
            zeroWindow(fromA);
        }
    }

    void once(char letter, boolean fromA) {
        int bit = 1 << (ONCE_LETTERS.indexOf(letter) * 2 + (fromA ? 1 : 0));
        if ((onceSeen & bit) == 0) {
            onceSeen |= bit;
            add(letter, fromA);
        }
    }

    void retransmission(boolean fromA) {
        logScale('T', fromA, fromA ? ++retransmissionsA : ++retransmissionsB);
    }

    void zeroWindow(boolean fromA) {
        logScale('W', fromA, fromA ? ++zeroWindowsA : ++zeroWindowsB);
    }

    /** Records {@code letter} when this is its {@code n}th occurrence and {@code n} is 1, 10, 100, ... */
    private void logScale(char letter, boolean fromA, int n) {
        for (long p = 1; p <= n; p *= 10) {
            if (p == n) {
                add(letter, fromA);
                return;
            }
        }
    }

    private void add(char letter, boolean fromA) {
        if (length == events.length && length < MAX_EVENTS) {
            events = java.util.Arrays.copyOf(events, Math.min(MAX_EVENTS, length * 2));
        }
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
