package io.ackscope.spark.source;

import io.ackscope.decode.DecodeStatus;
import io.ackscope.decode.Layer;
import io.ackscope.decode.PacketDecoder;
import io.ackscope.tables.PacketSchema;
import io.ackscope.tcp.Addresses;
import io.ackscope.tcp.HttpStartLine;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeArrayWriter;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Writes one {@link PacketSchema} row per frame into one reused {@link UnsafeRow}, for only the columns a query
 * asked for. One instance per task; the returned row is overwritten by the next call (Spark copies rows it keeps).
 * Allocates nothing per frame except for decode-reason strings, which are cached by identity (they are constants).
 */
final class PacketRowWriter {
    private final int[] columns;            // output ordinal -> PacketSchema column
    private final UnsafeRowWriter row;
    private final UnsafeArrayWriter sackArray;
    private final UnsafeRowWriter sackBlock;
    private final byte[] fileName;
    private final byte[] sourceName;
    private final int fileIndex;
    private final int payloadBytes;
    private final boolean httpOnly;
    private final byte[] text = new byte[Addresses.MAX_TEXT];
    private final Map<String, UTF8String> reasons = new IdentityHashMap<>();

    /** What the readers give a record without a timestamp (pcapng Simple Packet Block). */
    static final long NO_TIMESTAMP = Long.MIN_VALUE;

    private static final UTF8String[] STATUS = new UTF8String[DecodeStatus.values().length];
    private static final UTF8String[] LAYER = new UTF8String[Layer.values().length];

    static {
        for (DecodeStatus s : DecodeStatus.values()) {
            STATUS[s.ordinal()] = UTF8String.fromString(s.name());
        }
        for (Layer l : Layer.values()) {
            LAYER[l.ordinal()] = UTF8String.fromString(l.name());
        }
    }

    /**
     * @param required     the columns to write, a subset of {@link PacketSchema#TABLE} in any order
     * @param payloadBytes how many payload bytes the {@code payload} column keeps
     * @param httpOnly     keep payload bytes only when they may start an HTTP/1.x message ({@link HttpStartLine})
     */
    PacketRowWriter(StructType required, String file, int fileIndex, String source, int payloadBytes,
                    boolean httpOnly) {
        this.columns = new int[required.fields().length];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = PacketSchema.TABLE.ordinal(required.fields()[i].name());
        }
        this.row = new UnsafeRowWriter(columns.length, 256);
        this.sackArray = new UnsafeArrayWriter(row, 8);
        this.sackBlock = new UnsafeRowWriter(sackArray, 2);
        this.fileName = file.getBytes(StandardCharsets.UTF_8);
        this.sourceName = source.getBytes(StandardCharsets.UTF_8);
        this.fileIndex = fileIndex;
        this.payloadBytes = payloadBytes;
        this.httpOnly = httpOnly;
    }

    /** Writes the frame's row; {@code d} has decoded {@code buf[off .. off + capLen)}. */
    UnsafeRow write(PacketDecoder d, byte[] buf, long frameNumber, long recordOffset, long timestampNanos,
                    int capLen, long origLen, int linkType, int interfaceId) {
        row.reset();
        row.zeroOutNullBytes();
        boolean tcp = d.hasTcp();
        boolean ip = d.ipVersion() != 0;
        boolean ports = d.srcPort() >= 0 && (tcp || d.hasUdp());
        for (int i = 0; i < columns.length; i++) {
            switch (columns[i]) {
                case PacketSchema.FILE -> row.write(i, fileName, 0, fileName.length);
                case PacketSchema.FILE_INDEX -> row.write(i, fileIndex);
                case PacketSchema.SOURCE -> row.write(i, sourceName, 0, sourceName.length);
                case PacketSchema.FRAME_NUMBER -> row.write(i, frameNumber);
                case PacketSchema.RECORD_OFFSET -> row.write(i, recordOffset);
                case PacketSchema.TIMESTAMP_COL ->
                        longOrNull(i, timestampNanos != NO_TIMESTAMP, Math.floorDiv(timestampNanos, 1000L));
                case PacketSchema.TIMESTAMP_NS -> longOrNull(i, timestampNanos != NO_TIMESTAMP, timestampNanos);
                case PacketSchema.CAPTURED_LENGTH -> row.write(i, capLen);
                case PacketSchema.ORIGINAL_LENGTH -> row.write(i, origLen);
                case PacketSchema.LINK_TYPE -> row.write(i, linkType);
                case PacketSchema.INTERFACE_ID -> row.write(i, interfaceId);
                case PacketSchema.DECODE_STATUS -> row.write(i, STATUS[d.status().ordinal()]);
                case PacketSchema.DECODE_LAYER -> stringOrNull(i, d.status() == DecodeStatus.OK ? null
                        : LAYER[d.stopLayer().ordinal()]);
                case PacketSchema.DECODE_REASON -> stringOrNull(i, d.stopReason() == null ? null
                        : reasons.computeIfAbsent(d.stopReason(), UTF8String::fromString));
                case PacketSchema.IP_VERSION -> intOrNull(i, ip, d.ipVersion());
                case PacketSchema.SRC_IP -> address(i, ip, d.ipVersion(), d.srcHi(), d.srcLo());
                case PacketSchema.DST_IP -> address(i, ip, d.ipVersion(), d.dstHi(), d.dstLo());
                case PacketSchema.SRC_ADDR -> address16(i, ip, d.srcHi(), d.srcLo());
                case PacketSchema.DST_ADDR -> address16(i, ip, d.dstHi(), d.dstLo());
                case PacketSchema.IP_PROTOCOL -> intOrNull(i, ip && d.ipProtocol() >= 0, d.ipProtocol());
                case PacketSchema.IP_TTL -> intOrNull(i, ip, d.ttl());
                case PacketSchema.IP_FRAGMENT -> booleanOrNull(i, ip, ip && d.isFragment());
                case PacketSchema.SRC_PORT -> intOrNull(i, ports, d.srcPort());
                case PacketSchema.DST_PORT -> intOrNull(i, ports, d.dstPort());
                case PacketSchema.TCP_FLAGS -> intOrNull(i, tcp, d.tcpFlags());
                case PacketSchema.TCP_SEQ -> longOrNull(i, tcp, d.seq());
                case PacketSchema.TCP_ACK -> longOrNull(i, tcp, d.ack());
                case PacketSchema.TCP_WINDOW -> intOrNull(i, tcp, d.window());
                case PacketSchema.TCP_HEADER_LENGTH -> intOrNull(i, tcp, d.tcpHeaderLength());
                case PacketSchema.PAYLOAD_LENGTH -> intOrNull(i, tcp || d.hasUdp(), d.payloadLength());
                case PacketSchema.CAPTURED_PAYLOAD_LENGTH -> intOrNull(i, tcp || d.hasUdp(), d.capturedPayloadLength());
                case PacketSchema.TCP_MSS -> intOrNull(i, tcp && d.mss() >= 0, d.mss());
                case PacketSchema.TCP_WINDOW_SCALE -> intOrNull(i, tcp && d.windowScale() >= 0, d.windowScale());
                case PacketSchema.TCP_SACK_PERMITTED -> booleanOrNull(i, tcp, tcp && d.sackPermitted());
                case PacketSchema.TCP_TS_VAL -> longOrNull(i, tcp && d.hasTimestamps(), d.tsVal());
                case PacketSchema.TCP_TS_ECR -> longOrNull(i, tcp && d.hasTimestamps(), d.tsEcr());
                case PacketSchema.TCP_SACK -> sack(i, d, tcp);
                case PacketSchema.TCP_FAST_OPEN -> booleanOrNull(i, tcp, tcp && d.hasFastOpen());
                case PacketSchema.PAYLOAD -> payload(i, d, buf, tcp || d.hasUdp());
                default -> throw new IllegalStateException("column " + columns[i]);
            }
        }
        return row.getRow();
    }

    /** The payload's first bytes (at most {@code payloadBytes}; with {@code httpOnly} only an HTTP start). */
    private void payload(int i, PacketDecoder d, byte[] buf, boolean present) {
        if (!present) {
            row.setNullAt(i);
            return;
        }
        int n = Math.min(payloadBytes, d.capturedPayloadLength());
        if (httpOnly) {
            n = HttpStartLine.bytesNeeded(buf, d.payloadOffset(), n);
        }
        row.write(i, buf, d.payloadOffset(), n);
    }

    private void stringOrNull(int i, UTF8String s) {
        if (s == null) {
            row.setNullAt(i);
        } else {
            row.write(i, s);
        }
    }

    private void booleanOrNull(int i, boolean present, boolean v) {
        if (present) {
            row.write(i, v);
        } else {
            row.setNullAt(i);
        }
    }

    private void intOrNull(int i, boolean present, int v) {
        if (present) {
            row.write(i, v);
        } else {
            row.setNullAt(i);
        }
    }

    private void longOrNull(int i, boolean present, long v) {
        if (present) {
            row.write(i, v);
        } else {
            row.setNullAt(i);
        }
    }

    private void address16(int i, boolean present, long hi, long lo) {
        if (!present) {
            row.setNullAt(i);
            return;
        }
        for (int b = 0; b < 8; b++) {
            text[b] = (byte) (hi >>> (56 - 8 * b));
            text[8 + b] = (byte) (lo >>> (56 - 8 * b));
        }
        row.write(i, text, 0, 16);
    }

    private void address(int i, boolean present, int version, long hi, long lo) {
        if (!present) {
            row.setNullAt(i);
            return;
        }
        int n = Addresses.write(version, hi, lo, text, 0);
        row.write(i, text, 0, n);
    }

    /** SACK blocks as an array of (left, right) structs, the way Spark's generated projections write them. */
    private void sack(int i, PacketDecoder d, boolean tcp) {
        int n = tcp ? d.sackBlockCount() : 0;
        if (n == 0) {
            row.setNullAt(i);
            return;
        }
        int arrayStart = row.cursor();
        sackArray.initialize(n);
        for (int b = 0; b < n; b++) {
            int blockStart = sackArray.cursor();
            sackBlock.resetRowWriter();
            sackBlock.write(0, d.sackLeft(b));
            sackBlock.write(1, d.sackRight(b));
            sackArray.setOffsetAndSizeFromPreviousCursor(b, blockStart);
        }
        row.setOffsetAndSizeFromPreviousCursor(i, arrayStart);
    }
}
