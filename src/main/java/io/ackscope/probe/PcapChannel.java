package io.ackscope.probe;

import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.packet.namednumber.DataLinkType;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.locks.LockSupport;

/**
 * Raw frames in and out of one Ethernet (or Linux loopback) interface through libpcap.
 *
 * <p>Two handles: one only injects, the other reads what its BPF filter passes, with kernel timestamps in
 * nanoseconds. They are separate because Linux does not hand a packet socket its own transmissions back
 * ({@code skb_loop_sk}), and the probes want the kernel's timestamp of each SYN they send, as a capture running
 * beside them would record it. On loopback the frames' IPv4 packets go out through a {@link RawIpSender} instead
 * of libpcap injection (see there why).
 */
final class PcapChannel implements Closeable {

    /** Bytes kept of each received frame: Ethernet + VLAN + IPv4 with options + ICMP + quoted IPv4 and TCP. */
    static final int SNAPLEN = 256;
    /** Kernel block timeout of the receiving ring. */
    static final int READ_TIMEOUT_MS = 1;
    /** How long {@link #next()} sleeps when nothing is waiting. Arrival times come from the kernel, not from this. */
    private static final long IDLE_NANOS = 100_000;
    /** A filter that passes nothing, so the injecting handle's ring stays empty. */
    private static final String NOTHING = "less 1";

    private final PcapHandle tx;        // null on loopback
    private final RawIpSender rawTx;    // null unless on loopback
    private final PcapHandle rx;

    private PcapChannel(PcapHandle tx, RawIpSender rawTx, PcapHandle rx) {
        this.tx = tx;
        this.rawTx = rawTx;
        this.rx = rx;
    }

    /**
     * Opens both handles on {@code device}; the receiving one starts filtering with {@code filter} before this
     * returns, so nothing sent afterwards is missed.
     *
     * @param loopback send through a raw IP socket rather than libpcap injection
     * @throws PcapNativeException no permission (not root / no CAP_NET_RAW), unknown device, bad filter
     * @throws IOException         the raw socket for loopback could not be opened
     */
    static PcapChannel open(String device, String filter, boolean loopback)
            throws PcapNativeException, NotOpenException, IOException {
        PcapHandle rx = Libpcap.openLive(device, SNAPLEN, READ_TIMEOUT_MS, true, 0);
        PcapHandle tx = null;
        try {
            if (rx.getDlt().value() != DataLinkType.EN10MB.value()) {
                throw new PcapNativeException(device + " has link type " + rx.getDlt()
                        + "; raw SYN probes support Ethernet (EN10MB) framing only");
            }
            rx.setFilter(filter, BpfProgram.BpfCompileMode.OPTIMIZE);
            // Linux libpcap with TPACKET_V3 ignores the read timeout in blocking reads (the kernel's block timer
            // only fires for a block holding packets), so a blocking read with nothing to read never returns.
            rx.setBlockingMode(PcapHandle.BlockingMode.NONBLOCKING);
            if (loopback) {
                return new PcapChannel(null, new RawIpSender(), rx);
            }
            tx = Libpcap.openLive(device, SNAPLEN, READ_TIMEOUT_MS, true, 0);
            tx.setFilter(NOTHING, BpfProgram.BpfCompileMode.OPTIMIZE);
            return new PcapChannel(tx, null, rx);
        } catch (PcapNativeException | NotOpenException | IOException | RuntimeException e) {
            rx.close();
            if (tx != null) {
                tx.close();
            }
            throw e;
        }
    }

    /** Sends the Ethernet frame {@code frame[0 .. len)} carrying an IPv4 packet to {@code dstIp}. */
    void send(byte[] frame, int len, int dstIp) throws PcapNativeException, NotOpenException, IOException {
        if (rawTx != null) {
            rawTx.send(frame, SynPacket.ETHERNET_HEADER, len - SynPacket.ETHERNET_HEADER, dstIp);
        } else {
            tx.sendPacket(frame, len);
        }
    }

    /**
     * The next frame the filter passed, or null (after a pause of 0.1 ms) when none is waiting. The array is a
     * fresh copy made by pcap4j; its timestamp is {@link #timestampNanos()} until the next call.
     */
    byte[] next() throws NotOpenException {
        byte[] b = rx.getNextRawPacket();
        if (b == null) {
            LockSupport.parkNanos(IDLE_NANOS);
        }
        return b;
    }

    /** Kernel timestamp of the frame last returned by {@link #next()}, nanoseconds since the Unix epoch. */
    long timestampNanos() {
        return Libpcap.epochNanos(rx.getTimestamp());
    }

    @Override
    public void close() {
        rx.close();
        if (tx != null) {
            tx.close();
        }
        if (rawTx != null) {
            rawTx.close();
        }
    }
}
