package io.ackscope.tables;

import java.util.List;

import static io.ackscope.tables.ColumnType.BINARY;
import static io.ackscope.tables.ColumnType.BOOLEAN;
import static io.ackscope.tables.ColumnType.INT;
import static io.ackscope.tables.ColumnType.LONG;
import static io.ackscope.tables.ColumnType.SACK_BLOCKS;
import static io.ackscope.tables.ColumnType.STRING;
import static io.ackscope.tables.ColumnType.TIMESTAMP;

/** Rows of the {@code pcap} data source, and the {@code packets} table {@code analyze --packets} writes: one per frame. */
public final class PacketSchema {
    private PacketSchema() {
    }

    // Ordinals, in the order of TABLE's columns.
    public static final int FILE = 0, FILE_INDEX = 1, FRAME = 2, RECORD_OFFSET = 3, FRAME_TIME = 4,
            FRAME_TIME_NS = 5, CAPTURED_LENGTH = 6, ORIGINAL_LENGTH = 7, LINK_TYPE = 8, INTERFACE_ID = 9,
            DECODE_STATUS = 10, DECODE_LAYER = 11, DECODE_REASON = 12, IP_VERSION = 13, SRC_IP = 14, DST_IP = 15,
            SRC_ADDR = 16, DST_ADDR = 17, IP_PROTOCOL = 18, IP_TTL = 19, IP_FRAGMENT = 20, SRC_PORT = 21,
            DST_PORT = 22, TCP_FLAGS = 23, TCP_SEQ = 24, TCP_ACK = 25, TCP_WINDOW = 26, TCP_HEADER_LENGTH = 27,
            PAYLOAD_LENGTH = 28, CAPTURED_PAYLOAD_LENGTH = 29, TCP_MSS = 30, TCP_WINDOW_SCALE = 31,
            TCP_SACK_PERMITTED = 32, TCP_TS_VAL = 33, TCP_TS_ECR = 34, TCP_SACK = 35, TCP_FAST_OPEN = 36,
            PAYLOAD = 37, SOURCE = 38;

    public static final TableSchema TABLE = new TableSchema("packets",
            "One row per frame (packet record) of every capture, in the `pcap` data source and in the `packets` "
                    + "table that `analyze --packets` writes. Fields of a layer the frame does not have are null.",
            List.of(
                    new Column("file", STRING, false, "", "Capture file (Hadoop path URI)."),
                    new Column("file_index", INT, false, "",
                            "Position of the file: in the `packets` table, in its source (as "
                                    + "`capture_files.file_index`); read through the `pcap` data source, in the "
                                    + "sorted list of its input files (0-based). With `frame` it gives file order."),
                    new Column("frame", LONG, false, "",
                            "Frame number: 1-based number of the record in its file, as tshark's `frame.number` "
                                    + "(exact also when the file is read in splits)."),
                    new Column("record_offset", LONG, false, "bytes",
                            "Byte offset of the record header (pcap record header or pcapng block) in the "
                                    + "decompressed file."),
                    new Column("frame_time", TIMESTAMP, true, "",
                            "Capture time (UTC; tshark's `frame.time`), microsecond precision; null for a pcapng Simple Packet Block, "
                                    + "which has none."),
                    new Column("frame_time_ns", LONG, true, "ns",
                            "Capture time in nanoseconds since the Unix epoch, at the file's full resolution; "
                                    + "null when the record has no timestamp."),
                    new Column("captured_length", INT, false, "bytes", "Bytes of the frame in the file (`frame.cap_len`)."),
                    new Column("original_length", LONG, false, "bytes", "Length on the wire (`frame.len`)."),
                    new Column("link_type", INT, false, "", "LINKTYPE_ value of the frame's interface."),
                    new Column("interface_id", INT, false, "",
                            "pcapng interface index within its section; 0 for classic pcap."),
                    new Column("decode_status", STRING, false, "",
                            "OK, TRUNCATED (a header cut by the snap length), MALFORMED (a header violating its "
                                    + "specification) or UNSUPPORTED (a protocol ackscope does not decode)."),
                    new Column("decode_layer", STRING, true, "",
                            "Layer where decoding stopped (LINK, VLAN, MPLS, IPV4, IPV6, IPV6_EXTENSION, TCP, UDP, "
                                    + "ICMP, ICMPV6); null when the status is OK."),
                    new Column("decode_reason", STRING, true, "", "Why decoding stopped; null when the status is OK."),
                    new Column("ip_version", INT, true, "", "4 or 6 (innermost IP header); null without IP."),
                    new Column("src_ip", STRING, true, "", "Source address (IPv4 dotted, IPv6 RFC 5952)."),
                    new Column("dst_ip", STRING, true, "", "Destination address (IPv4 dotted, IPv6 RFC 5952)."),
                    new Column("src_addr", BINARY, true, "",
                            "Source address as 16 bytes, network order (IPv4 as ::ffff:a.b.c.d); compact for joins."),
                    new Column("dst_addr", BINARY, true, "", "Destination address as 16 bytes, like `src_addr`."),
                    new Column("ip_protocol", INT, true, "", "Transport protocol number (after IPv6 extension headers)."),
                    new Column("ip_ttl", INT, true, "", "IPv4 TTL or IPv6 hop limit."),
                    new Column("ip_fragment", BOOLEAN, true, "", "The frame is an IP fragment."),
                    new Column("src_port", INT, true, "", "TCP or UDP source port."),
                    new Column("dst_port", INT, true, "", "TCP or UDP destination port."),
                    new Column("tcp_flags", INT, true, "",
                            "TCP flags as tshark's `tcp.flags` (FIN 0x001, SYN 0x002, RST 0x004, PSH 0x008, ACK 0x010, "
                                    + "URG 0x020, ECE 0x040, CWR 0x080, NS 0x100); null when the frame has no TCP header."),
                    new Column("tcp_seq", LONG, true, "", "Raw TCP sequence number (unsigned 32-bit)."),
                    new Column("tcp_ack", LONG, true, "", "Raw TCP acknowledgement number (unsigned 32-bit)."),
                    new Column("tcp_window", INT, true, "", "Raw TCP window field (not scaled)."),
                    new Column("tcp_header_length", INT, true, "bytes", "TCP header length (data offset × 4)."),
                    new Column("payload_length", INT, true, "bytes",
                            "Transport payload length from the IP length fields (`tcp.len` for TCP)."),
                    new Column("captured_payload_length", INT, true, "bytes",
                            "Transport payload bytes present in the capture (at most `payload_length`)."),
                    new Column("tcp_mss", INT, true, "bytes", "MSS option value; null when absent."),
                    new Column("tcp_window_scale", INT, true, "", "Window scale option shift count; null when absent."),
                    new Column("tcp_sack_permitted", BOOLEAN, true, "", "SACK-permitted option present."),
                    new Column("tcp_ts_val", LONG, true, "", "Timestamps option TSval; null when absent."),
                    new Column("tcp_ts_ecr", LONG, true, "", "Timestamps option TSecr; null when absent."),
                    new Column("tcp_sack", SACK_BLOCKS, true, "",
                            "SACK blocks (raw sequence numbers); null when the option is absent."),
                    new Column("tcp_fast_open", BOOLEAN, true, "", "TCP Fast Open option present."),
                    new Column("payload", BINARY, true, "bytes",
                            "First captured transport payload bytes, at most the `payloadBytes` read option "
                                    + "(default 128; `analyze --packets` keeps none), and with the read option "
                                    + "`payload=http` only when they start like an HTTP/1.x request (then all of "
                                    + "them) or status line (then its first 13 bytes, `HTTP/1.x NNN` and one more); "
                                    + "null without a transport header."),
                    new Column("source", STRING, false, "",
                            "Capture source of the file (`sources`); `frame` stays the file's own.")));
}
