package io.ackscope.fields;

import io.ackscope.capture.CaptureFormat;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.LinkTypes;
import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.FrameAnalysis;
import io.ackscope.decode.StopReasons;

import java.io.IOException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fields {@code ackscope fields -e NAME} knows, with tshark's names and printing. Each field says which pass it
 * needs, so the command runs only what the selected fields use; the TCP analysis fields ({@code tcp.stream},
 * {@code tcp.analysis.*}) need {@link Pass#TCP_ANALYSIS}, the TCP engine run over the frames in order, and the
 * {@code http.*} fields ({@link HttpFields}) {@link Pass#HTTP}, the HTTP messages reassembled from its output.
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
        TCP_ANALYSIS,
        /** The TCP analysis and the HTTP messages reassembled from it ({@link HttpConversations}). */
        HTTP
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
        /** The engine's analysis of this frame's TCP segment, null when it has none (TCP_ANALYSIS and HTTP passes). */
        public FrameAnalysis analysis;
        /** The HTTP messages, their fields set for this frame (HTTP pass only). */
        public HttpConversations http;
        /** The zone {@code frame.time} is shown in (tshark: the local zone). */
        public ZoneId zone = ZoneId.systemDefault();
        /**
         * Timestamps of the first frame, of the previous frame and of the previous frame printed (passed -Y), or
         * {@link CaptureReader#NO_TIMESTAMP}; the command sets them as it reads ({@link #advance}).
         */
        long firstTs = CaptureReader.NO_TIMESTAMP, previousTs = CaptureReader.NO_TIMESTAMP,
                previousShownTs = CaptureReader.NO_TIMESTAMP;
        /** {@code frame.time} of the second the last one was written in: its text up to the seconds, its zone. */
        private long clockSecond = Long.MIN_VALUE;
        private String clockHead = "", clockZone = "";

        /** After the current frame's row (or its filtering): it becomes the previous frame. */
        public void advance(boolean shown) {
            long ts = reader.timestampNanos();
            if (ts == CaptureReader.NO_TIMESTAMP) {
                return;
            }
            previousTs = ts;
            if (shown) {
                previousShownTs = ts;
            }
        }

        /** Before the current frame's fields: the first frame's time is the reference of frame.time_relative. */
        public void arrive() {
            if (firstTs == CaptureReader.NO_TIMESTAMP) {
                firstTs = reader.timestampNanos();
            }
        }

        /** Sets the {@code frame.time} texts of second {@code seconds}: formatted once per second, not per frame. */
        private void clock(long seconds) {
            if (seconds != clockSecond) {
                clockSecond = seconds;
                String text = CLOCK.format(Instant.ofEpochSecond(seconds).atZone(zone));
                int bar = text.indexOf('|');
                clockHead = text.substring(0, bar);
                clockZone = text.substring(bar + 1);
            }
        }
    }

    /** C locale {@code %b %e, %Y %H:%M:%S} and, after the fraction, {@code %Z}: "Jan  6, 2013 17:22:32|UTC". */
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("MMM ppd, yyyy HH:mm:ss|zzz",
            Locale.ROOT);

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
        add("frame.time", "capture time in the local zone, as \"Jan  6, 2013 17:22:32.275121000 UTC\"", Pass.READ,
                FrameFields::clockTime);
        add("frame.time_relative", "seconds since the first frame", Pass.READ,
                (f, o) -> sinceTime(f, o, f.firstTs));
        add("frame.time_delta", "seconds since the previous frame", Pass.READ,
                (f, o) -> sinceTime(f, o, f.previousTs));
        add("frame.time_delta_displayed", "seconds since the previous frame printed (that passed -Y)", Pass.READ,
                (f, o) -> sinceTime(f, o, f.previousShownTs));
        add("frame.len", "length on the wire", Pass.READ, (f, o) -> o.decimal(f.reader.originalLength()));
        add("frame.cap_len", "captured length", Pass.READ, (f, o) -> o.decimal(f.reader.capturedLength()));

        add("ip.src", "source of the first IPv4 header", Pass.DECODE, (f, o) -> ipv4(f, o, 12));
        add("ip.dst", "destination of the first IPv4 header", Pass.DECODE, (f, o) -> ipv4(f, o, 16));
        add("ip.len", "total length field of the first IPv4 header", Pass.DECODE, (f, o) -> {
            int off = f.decoder.firstIpv4Offset();
            if (off >= 0 && 4 <= f.decoder.captureEnd() - off) {
                byte[] b = f.reader.data();
                int len = ((b[off + 2] & 0xff) << 8) | (b[off + 3] & 0xff);
                // 0 (TSO, BIG TCP): tshark takes the length the frame reports from this header on
                o.decimal(len != 0 ? len : f.reader.originalLength() - (off - f.reader.dataOffset()));
            }
        });
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
        flagBit("tcp.flags.res", "reserved bits (1 if any is set)", 0x0e00);
        flagBit("tcp.flags.ae", "AccECN bit (formerly NS)", 0x0100);
        flagBit("tcp.flags.cwr", "CWR bit", 0x0080);
        flagBit("tcp.flags.ece", "ECE bit", 0x0040);
        flagBit("tcp.flags.urg", "URG bit", 0x0020);
        flagBit("tcp.flags.ack", "ACK bit", 0x0010);
        flagBit("tcp.flags.push", "PSH bit", 0x0008);
        flagBit("tcp.flags.reset", "RST bit", 0x0004);
        flagBit("tcp.flags.syn", "SYN bit", 0x0002);
        flagBit("tcp.flags.fin", "FIN bit", 0x0001);
        add("tcp.hdr_len", "TCP header length in bytes (data offset times 4)", Pass.DECODE, (f, o) -> {
            if (tcpFixedFields(f.decoder)) {
                o.decimal(f.decoder.tcpHeaderLength());
            }
        });
        add("tcp.flags.str", "the 12 flag bits as letters, \u00b7 for a clear bit (\"\u00b7\u00b7\u00b7\u00b7\u00b7\u00b7\u00b7AP\u00b7\u00b7\u00b7\")",
                Pass.DECODE, (f, o) -> {
                    if (tcpFixedFields(f.decoder)) {
                        flagLetters(f.decoder.tcpFlags(), o);
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
        add("tcp.seq", "TCP sequence number relative to the sender's first (tshark's relative numbering); as on "
                + "the wire for a TCP header quoted in an ICMP error", Pass.TCP_ANALYSIS, (f, o) -> {
                    PacketDecoder d = f.decoder;
                    if (f.analysis != null) {
                        o.decimal(f.analysis.relativeSeq);
                    } else if (d.quotedTcp() && d.quotedTcpBytes() >= 8) {
                        o.decimal(d.seq()); // no connection, so nothing to be relative to
                    }
                });
        analysed("tcp.ack", "TCP acknowledgment number relative to the peer's first (as on the wire without ACK)",
                (a, o) -> o.decimal(a.relativeAck));
        analysed("tcp.nxtseq", "relative sequence number after this segment (SYN and FIN count one)",
                (a, o) -> o.decimal(a.relativeNextSeq));
        analysed("tcp.window_size", "window field times the sender's scale factor, when known",
                (a, o) -> o.decimal(a.scaledWindow));
        analysed("tcp.window_size_scalefactor", "2^shift, -1 unknown, -2 no scaling; empty on SYNs", (a, o) -> {
            if (a.windowScaleFactor != 0) {
                o.decimal(a.windowScaleFactor);
            }
        });
        analysed("tcp.time_relative", "seconds since the connection's first frame",
                (a, o) -> o.epoch9(a.sinceFirstFrameNanos));
        analysed("tcp.time_delta", "seconds since the connection's previous frame",
                (a, o) -> o.epoch9(a.sincePreviousFrameNanos));
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
        analysisFlag("tcp.analysis.fast_retransmission", "1 for a fast retransmission", FrameAnalysis.FAST_RETRANSMISSION);
        analysisFlag("tcp.analysis.spurious_retransmission", "1 for a retransmission of acknowledged data",
                FrameAnalysis.SPURIOUS_RETRANSMISSION);
        analysisFlag("tcp.analysis.out_of_order", "1 for an out-of-order segment", FrameAnalysis.OUT_OF_ORDER);
        analysisFlag("tcp.analysis.lost_segment", "1 when a previous segment was not captured",
                FrameAnalysis.LOST_SEGMENT);
        analysisFlag("tcp.analysis.keep_alive", "1 for a keep-alive", FrameAnalysis.KEEP_ALIVE);
        analysisFlag("tcp.analysis.keep_alive_ack", "1 for the ACK of a keep-alive", FrameAnalysis.KEEP_ALIVE_ACK);
        analysisFlag("tcp.analysis.zero_window", "1 for a zero window advertisement", FrameAnalysis.ZERO_WINDOW);
        analysisFlag("tcp.analysis.zero_window_probe", "1 for a zero window probe", FrameAnalysis.ZERO_WINDOW_PROBE);
        analysisFlag("tcp.analysis.zero_window_probe_ack", "1 for the ACK of a zero window probe",
                FrameAnalysis.ZERO_WINDOW_PROBE_ACK);
        analysisFlag("tcp.analysis.window_full", "1 when this segment fills the peer's window",
                FrameAnalysis.WINDOW_FULL);
        analysisFlag("tcp.analysis.window_update", "1 for a window update", FrameAnalysis.WINDOW_UPDATE);
        analysed("tcp.analysis.duplicate_ack_num", "ordinal of a duplicate ACK", (a, o) -> {
            if (a.duplicateAck()) {
                o.decimal(a.dupAckNum);
            }
        });
        analysed("tcp.analysis.acks_frame", "frame whose segment this frame acknowledges", (a, o) -> {
            if (a.ackedFrame >= 0) {
                o.decimal(a.ackedFrame);
            }
        });
        analysed("tcp.analysis.bytes_in_flight", "unacknowledged payload bytes after this segment", (a, o) -> {
            if (a.bytesInFlight >= 0) {
                o.decimal(a.bytesInFlight);
            }
        });
        analysed("tcp.analysis.rto", "seconds from the first transmission to this retransmission", (a, o) -> {
            if (a.rtoNanos > 0 && a.has(FrameAnalysis.RETRANSMISSION)) {
                o.epoch9(a.rtoNanos);
            }
        });
        analysed("tcp.analysis.rto_frame", "frame this retransmission's tcp.analysis.rto is measured from",
                (a, o) -> {
                    if (a.rtoNanos > 0 && a.has(FrameAnalysis.RETRANSMISSION)) {
                        o.decimal(a.rtoFrame());
                    }
                });
        add("tcp.analysis.duplicate_ack", "1 for a duplicate ACK", Pass.TCP_ANALYSIS, (f, o) -> {
            if (f.analysis != null && f.analysis.duplicateAck()) {
                o.decimal(1);
            }
        });
        HttpFields.register();
    }

    /** What a field of the engine's analysis writes; called only for frames the engine analysed. */
    @FunctionalInterface
    private interface AnalysisWriter {
        void write(FrameAnalysis a, TsvOutput out) throws IOException;
    }

    private static void analysed(String name, String description, AnalysisWriter writer) {
        add(name, description, Pass.TCP_ANALYSIS, (f, o) -> {
            if (f.analysis != null) {
                writer.write(f.analysis, o);
            }
        });
    }

    private static void analysisFlag(String name, String description, int flag) {
        analysed(name, description, (a, o) -> {
            if (a.has(flag)) {
                o.decimal(1);
            }
        });
    }

    /** A bit of tcp.flags as tshark prints a boolean: 1 or 0, present with tcp.flags. */
    private static void flagBit(String name, String description, int mask) {
        add(name, description, Pass.DECODE, (f, o) -> {
            if (tcpFixedFields(f.decoder)) {
                o.decimal((f.decoder.tcpFlags() & mask) != 0 ? 1 : 0);
            }
        });
    }

    /** tshark's letters for tcp.flags bits 11 down to 0, and the UTF-8 middle dot it prints for a clear bit. */
    private static final byte[] FLAG_LETTERS = "RRRACEUAPRSF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] MIDDLE_DOT = {(byte) 0xc2, (byte) 0xb7};

    private static void flagLetters(int flags, TsvOutput o) throws IOException {
        for (int bit = 11; bit >= 0; bit--) {
            if ((flags & (1 << bit)) != 0) {
                o.raw(FLAG_LETTERS, 11 - bit, 1);
            } else {
                o.raw(MIDDLE_DOT, 0, 2);
            }
        }
    }

    /** Seconds from {@code since} to the current frame, when both have a timestamp. */
    private static void sinceTime(Frame f, TsvOutput o, long since) throws IOException {
        long ts = f.reader.timestampNanos();
        if (ts != CaptureReader.NO_TIMESTAMP) {
            o.epoch9(since == CaptureReader.NO_TIMESTAMP ? 0 : ts - since);
        }
    }

    /** frame.time: "%b %e, %Y %H:%M:%S", nine decimals and the zone name. */
    private static void clockTime(Frame f, TsvOutput o) throws IOException {
        long ts = f.reader.timestampNanos();
        if (ts == CaptureReader.NO_TIMESTAMP) {
            return;
        }
        long seconds = Math.floorDiv(ts, 1_000_000_000L);
        f.clock(seconds);
        o.ascii(f.clockHead);
        o.ascii(".");
        o.fraction9(Math.floorMod(ts, 1_000_000_000L));
        o.ascii(" ");
        o.ascii(f.clockZone);
    }

    static void add(String name, String description, Pass pass, CellWriter writer) {
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
