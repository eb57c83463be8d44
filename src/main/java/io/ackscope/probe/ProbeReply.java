package io.ackscope.probe;

/**
 * The answer to one probe. Fields the method cannot see are -1: a {@code connect()} probe knows only the flags
 * (SYN/ACK on success, RST on refusal) and the time.
 *
 * @param seq          probe number, from 0
 * @param from         address that answered (dotted quad)
 * @param ipLength     IPv4 total length of the answer, or -1
 * @param ttl          TTL of the answer, or -1
 * @param dontFragment DF flag of the answer
 * @param ipId         IPv4 identification of the answer, or -1
 * @param srcPort      source port of the answer (the probed port)
 * @param flags        TCP flags of the answer, 9 bits as tshark's {@code tcp.flags}; for an ICMP answer 0
 * @param window       TCP window of the answer, or -1
 * @param icmpType     ICMP type of the answer (11 time exceeded, 3 unreachable), or -1 for a TCP answer
 * @param icmpCode     ICMP code, or -1
 * @param rttNanos     probe sent to answer received
 * @param wireTimed    the RTT is the difference of the kernel's capture timestamps of the SYN and the answer,
 *                     as tshark would compute it; false when measured in user space
 */
public record ProbeReply(int seq, String from, int ipLength, int ttl, boolean dontFragment, int ipId, int srcPort,
                         int flags, int window, int icmpType, int icmpCode, long rttNanos, boolean wireTimed) {

    public static final int FIN = 0x001, SYN = 0x002, RST = 0x004, PSH = 0x008, ACK = 0x010, URG = 0x020,
            ECE = 0x040, CWR = 0x080;

    /** The target answered with TCP (SYN/ACK for an open port, RST for a closed one). */
    public boolean isTcp() {
        return icmpType < 0;
    }

    /** The target accepts connections on the port. */
    public boolean isSynAck() {
        return isTcp() && (flags & (SYN | ACK)) == (SYN | ACK);
    }

    /** The target refused (RST). */
    public boolean isReset() {
        return isTcp() && (flags & RST) != 0;
    }

    /** hping3's flag letters in its order: F S R P A U X(ECE) Y(CWR), such as {@code SA} or {@code RA}. */
    public static String flagLetters(int flags) {
        StringBuilder sb = new StringBuilder(8);
        if ((flags & FIN) != 0) sb.append('F');
        if ((flags & SYN) != 0) sb.append('S');
        if ((flags & RST) != 0) sb.append('R');
        if ((flags & PSH) != 0) sb.append('P');
        if ((flags & ACK) != 0) sb.append('A');
        if ((flags & URG) != 0) sb.append('U');
        if ((flags & ECE) != 0) sb.append('X');
        if ((flags & CWR) != 0) sb.append('Y');
        return sb.toString();
    }
}
