package io.ackscope.fields;

import io.ackscope.capture.CaptureFormat;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.LinkTypes;
import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.FrameAnalysis;
import io.ackscope.decode.StopReasons;

import java.io.IOException;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fields {@code ackscope fields -e NAME} knows, with tshark's names and printing. Each field says which pass it
 * needs, so the command runs only what the selected fields use; the TCP analysis fields ({@code tcp.stream},
 * {@code tcp.analysis.*}) need {@link Pass#TCP_ANALYSIS}, the TCP engine run over the frames in order.
 *
 * <p>Where tshark's choice of what to show depends on how many bytes it could read, the cell writers follow it:
 * tshark reads a header field by field and stops at the first one past the captured bytes, so {@code ip.src} is
 * shown once the source address was captured even if the destination was not, and {@code tcp.srcport} from 4 TCP
 * bytes while the flags, sequence numbers and window need 16.
 */
public final class FrameFields {
    private FrameFields() {
    }

    /** What must run over a frame before a field can be printed. */
    public enum Pass {
        /** The capture reader's record header only. */
        READ,
        /** The packet decoder. */
        DECODE,
        /** The TCP analysis engine (one pass, in frame order, as tshark without -2). */
        TCP_ANALYSIS
    }

    /** Writes one cell for the current frame; writes nothing for an empty cell. Must not allocate. */
    @FunctionalInterface
    public interface CellWriter {
        void write(Frame f, TsvOutput out) throws IOException;
    }

    /** A field: its tshark name, what it means, the pass it needs and how its cell is written. */
    public record Field(String name, String description, Pass pass, CellWriter writer) {
    }

    /** What a cell writer sees: the current record and its decoding, valid until the next frame. */
    public static final class Frame {
        public CaptureReader reader;
        public PacketDecoder decoder;
        /** The engine's analysis of this frame's TCP segment, null when it has none (TCP_ANALYSIS pass only). */
        public FrameAnalysis analysis;
    }

    private static final Map<String, Field> FIELDS = new LinkedHashMap<>();

    static {
        add("frame.number", "1-based frame number", Pass.READ, (f, o) -> o.decimal(f.reader.frameNumber()));
        add("frame.time_epoch", "seconds since the epoch, 9 decimals", Pass.READ, (f, o) -> {
            long ts = f.reader.timestampNanos();
            if (ts != CaptureReader.NO_TIMESTAMP) {
                o.epoch9(ts);
            }
        });
        add("frame.interface_id", "pcapng interface id (empty for classic pcap)", Pass.READ, (f, o) -> {
            if (f.reader.format() == CaptureFormat.PCAPNG) {
                o.decimal(f.reader.interfaceId());
            }
        });
        add("frame.encap_type", "Wireshark encapsulation number of the link type", Pass.READ, (f, o) -> {
            int encap = wiretapEncapsulation(f.reader.linkType());
            if (encap >= 0) {
                o.decimal(encap);
            }
        });
        add("frame.len", "length on the wire", Pass.READ, (f, o) -> o.decimal(f.reader.originalLength()));
        add("frame.cap_len", "captured length", Pass.READ, (f, o) -> o.decimal(f.reader.capturedLength()));

        add("ip.src", "source of the first IPv4 header", Pass.DECODE, (f, o) -> ipv4(f, o, 12));
        add("ip.dst", "destination of the first IPv4 header", Pass.DECODE, (f, o) -> ipv4(f, o, 16));
        add("ipv6.src", "source of the first IPv6 header", Pass.DECODE, (f, o) -> ipv6(f, o, 8));
        add("ipv6.dst", "destination of the first IPv6 header", Pass.DECODE, (f, o) -> ipv6(f, o, 24));

        add("tcp.srcport", "TCP source port (also of a TCP header quoted in an ICMP error)", Pass.DECODE,
                (f, o) -> {
                    if (f.decoder.hasTcpPorts()) {
                        o.decimal(f.decoder.srcPort());
                    }
                });
        add("tcp.dstport", "TCP destination port", Pass.DECODE, (f, o) -> {
            if (f.decoder.hasTcpPorts()) {
                o.decimal(f.decoder.dstPort());
            }
        });
        add("udp.srcport", "UDP source port (also of a UDP header quoted in an ICMP error)", Pass.DECODE,
                (f, o) -> {
                    if (f.decoder.hasUdpPorts()) {
                        o.decimal(f.decoder.srcPort());
                    }
                });
        add("udp.dstport", "UDP destination port", Pass.DECODE, (f, o) -> {
            if (f.decoder.hasUdpPorts()) {
                o.decimal(f.decoder.dstPort());
            }
        });
        add("tcp.flags", "TCP flags, 12 bits, as 0x0018", Pass.DECODE, (f, o) -> {
            if (tcpFixedFields(f.decoder)) {
                o.hex4(f.decoder.tcpFlags());
            }
        });
        add("tcp.seq_raw", "TCP sequence number as on the wire", Pass.DECODE, (f, o) -> {
            PacketDecoder d = f.decoder;
            // tshark shows no sequence number for a TCP header quoted behind an IPv4 header, and shows it (alone
            // with the ports and tcp.len) for a data offset below 5
            if (d.hasTcp() || (tcpFixedFields(d) && d.quotedIpVersion() == 6) || bogusDataOffset(d)) {
                o.decimal(d.seq());
            }
        });
        add("tcp.ack_raw", "TCP acknowledgment number as on the wire", Pass.DECODE, (f, o) -> {
            if (tcpFixedFields(f.decoder)) {
                o.decimal(f.decoder.ack());
            }
        });
        add("tcp.len", "TCP payload length from the IP length fields", Pass.DECODE, (f, o) -> {
            PacketDecoder d = f.decoder;
            if (d.hasTcp() && d.transportLength() >= d.tcpHeaderLength()) {
                o.decimal(d.payloadLength());
            } else if (bogusDataOffset(d)) {
                o.decimal(d.transportLength() - d.tcpHeaderLength()); // tshark subtracts the bogus header length
            }
        });
        add("tcp.window_size_value", "TCP window field, not scaled", Pass.DECODE, (f, o) -> {
            if (tcpFixedFields(f.decoder)) {
                o.decimal(f.decoder.window());
            }
        });

        add("tcp.stream", "TCP connection index in order of first appearance (tshark's port-reuse rules)",
                Pass.TCP_ANALYSIS, (f, o) -> {
                    if (f.analysis != null) {
                        o.decimal(f.analysis.stream);
                    }
                });
        add("tcp.analysis.ack_rtt", "seconds from the segment this frame acknowledges to this frame",
                Pass.TCP_ANALYSIS, (f, o) -> {
                    if (f.analysis != null && f.analysis.ackRttShown) {
                        o.epoch9(f.analysis.ackRttNanos);
                    }
                });
        add("tcp.analysis.initial_rtt", "seconds from the SYN to the ACK completing the handshake",
                Pass.TCP_ANALYSIS, (f, o) -> {
                    if (f.analysis != null && f.analysis.initialRttShown) {
                        o.epoch9(f.analysis.initialRttNanos);
                    }
                });
        add("tcp.analysis.retransmission", "1 for a retransmission (plain, fast or spurious)", Pass.TCP_ANALYSIS,
                (f, o) -> {
                    if (f.analysis != null && f.analysis.retransmission()) {
                        o.decimal(1);
                    }
                });
        add("tcp.analysis.duplicate_ack", "1 for a duplicate ACK", Pass.TCP_ANALYSIS, (f, o) -> {
            if (f.analysis != null && f.analysis.duplicateAck()) {
                o.decimal(1);
            }
        });
    }

    private static void add(String name, String description, Pass pass, CellWriter writer) {
        FIELDS.put(name, new Field(name, description, pass, writer));
    }

    /** The field called {@code name}, or null. */
    public static Field get(String name) {
        return FIELDS.get(name);
    }

    /** Every field, in the order of the help text. */
    public static Collection<Field> all() {
        return Collections.unmodifiableCollection(FIELDS.values());
    }

    /** tshark shows flags, ack and window of its own TCP header, and of a quoted one of at least 16 bytes. */
    private static boolean tcpFixedFields(PacketDecoder d) {
        return d.hasTcp() || (d.quotedTcp() && d.quotedTcpBytes() >= 16);
    }

    /** A TCP header whose fixed fields were read but whose data offset is below 5. */
    private static boolean bogusDataOffset(PacketDecoder d) {
        return d.stopReason() == StopReasons.TCP_DATA_OFFSET;
    }

    private static void ipv4(Frame f, TsvOutput o, int at) throws IOException {
        int off = f.decoder.firstIpv4Offset();
        if (off >= 0 && at + 4 <= f.decoder.captureEnd() - off) {
            o.ipv4(f.reader.data(), off + at);
        }
    }

    private static void ipv6(Frame f, TsvOutput o, int at) throws IOException {
        int off = f.decoder.firstIpv6Offset();
        if (off >= 0 && at + 16 <= f.decoder.captureEnd() - off) {
            o.ipv6(f.reader.data(), off + at);
        }
    }

    /** Wireshark's WTAP_ENCAP number for the link types ackscope decodes, -1 for others. */
    static int wiretapEncapsulation(int linkType) {
        switch (linkType) {
            case LinkTypes.EN10MB: return 1;
            case LinkTypes.RAW:
            case LinkTypes.RAW_OPENBSD:
            case 14: return 7;       // raw IP, whatever the numbering
            case LinkTypes.NULL: return 15;
            case LinkTypes.LINUX_SLL: return 25;
            case LinkTypes.IPV4: return 129;
            case LinkTypes.IPV6: return 130;
            case LinkTypes.LOOP: return 174;
            case LinkTypes.LINUX_SLL2: return 210;
            default: return -1;
        }
    }
}
