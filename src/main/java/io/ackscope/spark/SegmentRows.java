package io.ackscope.spark;

import io.ackscope.tcp.Segment;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.unsafe.Platform;

import java.nio.ByteOrder;

/**
 * The frame columns {@code analyze} shuffles, and how a shuffled row becomes the engine's {@link Segment} again.
 * Reading an {@link UnsafeRow} allocates nothing: addresses and the payload prefix are read straight from the
 * row's bytes.
 */
final class SegmentRows {
    private SegmentRows() {
    }

    /** Columns selected from the {@code pcap} source, in this order. */
    static final String[] COLUMNS = {"file_index", "frame_number", "timestamp_ns", "original_length", "src_addr",
            "dst_addr", "src_port", "dst_port", "tcp_seq", "tcp_ack", "tcp_flags", "tcp_window", "payload_length",
            "tcp_mss", "tcp_window_scale", "tcp_sack_permitted", "tcp_ts_val", "tcp_ts_ecr", "tcp_sack", "payload"};

    private static final int FILE_INDEX = 0, FRAME = 1, TS = 2, LEN = 3, SRC = 4, DST = 5, SPORT = 6, DPORT = 7,
            SEQ = 8, ACK = 9, FLAGS = 10, WINDOW = 11, PAYLOAD_LEN = 12, MSS = 13, WSCALE = 14, SACK_OK = 15,
            TSVAL = 16, TSECR = 17, SACK = 18, PAYLOAD = 19;

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    /** Fills {@code s} from a row of {@link #COLUMNS} (a TCP frame: the TCP fields are not null). */
    static void fill(Segment s, InternalRow r) {
        s.clear();
        s.fileIndex = r.getInt(FILE_INDEX);
        s.frameNumber = r.getLong(FRAME);
        s.timestampNanos = r.isNullAt(TS) ? PacketRowWriter.NO_TIMESTAMP : r.getLong(TS);
        s.frameLength = r.getLong(LEN);
        if (r instanceof UnsafeRow u) {
            s.srcHi = word(u, SRC, 0);
            s.srcLo = word(u, SRC, 1);
            s.dstHi = word(u, DST, 0);
            s.dstLo = word(u, DST, 1);
        } else {
            byte[] a = r.getBinary(SRC);
            byte[] b = r.getBinary(DST);
            s.srcHi = be(a, 0);
            s.srcLo = be(a, 8);
            s.dstHi = be(b, 0);
            s.dstLo = be(b, 8);
        }
        s.srcPort = r.getInt(SPORT);
        s.dstPort = r.getInt(DPORT);
        s.seq = r.getLong(SEQ);
        s.ack = r.getLong(ACK);
        s.flags = r.getInt(FLAGS);
        s.window = r.getInt(WINDOW);
        s.payloadLength = r.getInt(PAYLOAD_LEN);
        s.mss = r.isNullAt(MSS) ? -1 : r.getInt(MSS);
        s.windowScale = r.isNullAt(WSCALE) ? -1 : r.getInt(WSCALE);
        s.sackPermitted = r.getBoolean(SACK_OK);
        s.hasTimestamps = !r.isNullAt(TSVAL);
        if (s.hasTimestamps) {
            s.tsVal = r.getLong(TSVAL);
            s.tsEcr = r.getLong(TSECR);
        }
        if (!r.isNullAt(SACK)) {
            ArrayData blocks = r.getArray(SACK);
            int n = Math.min(4, blocks.numElements());
            for (int i = 0; i < n; i++) {
                InternalRow b = blocks.getStruct(i, 2);
                s.sackLeft[i] = b.getLong(0);
                s.sackRight[i] = b.getLong(1);
            }
            s.sackBlockCount = n;
        }
        if (!r.isNullAt(PAYLOAD)) {
            if (r instanceof UnsafeRow u) {
                long offsetAndSize = u.getLong(PAYLOAD);
                int size = Math.min((int) offsetAndSize, Segment.MAX_PAYLOAD_PREFIX);
                long from = u.getBaseOffset() + (offsetAndSize >>> 32);
                Platform.copyMemory(u.getBaseObject(), from, s.payloadPrefix, Platform.BYTE_ARRAY_OFFSET, size);
                s.payloadPrefixLength = size;
            } else {
                byte[] p = r.getBinary(PAYLOAD);
                s.setPayloadPrefix(p, 0, p.length);
            }
        }
    }

    /** Big-endian 64-bit word {@code w} (0 or 1) of a 16-byte binary field, read in place. */
    private static long word(UnsafeRow u, int ordinal, int w) {
        long offsetAndSize = u.getLong(ordinal);
        long v = Platform.getLong(u.getBaseObject(), u.getBaseOffset() + (offsetAndSize >>> 32) + 8L * w);
        return LITTLE_ENDIAN ? Long.reverseBytes(v) : v;
    }

    private static long be(byte[] a, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (a[off + i] & 0xff);
        }
        return v;
    }
}
