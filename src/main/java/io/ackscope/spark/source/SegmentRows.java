package io.ackscope.spark.source;

import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.HttpStartLine;
import io.ackscope.tcp.Segment;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.Platform;

import java.util.Arrays;

/**
 * The rows {@code analyze} shuffles, and how a shuffled row becomes the engine's {@link Segment} again.
 *
 * <p>The read tasks of {@code analyze}'s shuffle give, for each TCP frame, four columns instead of the
 * {@code pcap} source's frame columns: {@code file_index}, {@code frame} (the sort order), {@code conn_key} (a
 * direction-independent hash of the 4-tuple: the shuffle key) and {@code segment}, every other field the engine reads
 * packed into one binary value of 90 bytes plus 8 per SACK block plus the kept payload prefix. Spark serializes and
 * shuffles rows as they are; four fields instead of twenty and about 135 instead of about 220 bytes a row is what
 * this is for. Reading a row back allocates nothing: the fields are read straight from the row's bytes.
 *
 * <h2>Layout of {@code segment}</h2>
 * Little-endian: timestamp (ns, long; {@link PacketRowWriter#NO_TIMESTAMP} when the record has none), source high
 * and low and destination high and low address words (4 longs); then as unsigned 32-bit ints the frame length,
 * sequence and acknowledgement numbers, TSval and TSecr; as unsigned 16-bit shorts the source and destination ports,
 * flags and raw window; as ints the payload length and MSS (-1 when absent); as a short the window scale (-1 when
 * absent); one byte of bits (1: SACK permitted, 2: TCP timestamps present), one byte of SACK block count (at most 4),
 * a short payload prefix length; as ints the IPv4 identification (-1 for IPv6) and the IP length ({@code ip.len});
 * the SACK blocks (left and right edges as unsigned 32-bit ints); the payload prefix.
 */
public final class SegmentRows {
    private SegmentRows() {
    }

    public static final StructType SCHEMA = new StructType(new StructField[]{
            DataTypes.createStructField("file_index", DataTypes.IntegerType, false),
            DataTypes.createStructField("frame", DataTypes.LongType, false),
            DataTypes.createStructField("conn_key", DataTypes.LongType, false),
            DataTypes.createStructField("segment", DataTypes.BinaryType, false)});

    public static final int FILE_INDEX = 0, FRAME = 1, KEY = 2, SEGMENT = 3;

    /** Bytes before the SACK blocks. */
    static final int FIXED_BYTES = 90;
    private static final int TS = 0, SRC_HI = 8, SRC_LO = 16, DST_HI = 24, DST_LO = 32, FRAME_LEN = 40, SEQ = 44,
            ACK = 48, TSVAL = 52, TSECR = 56, SPORT = 60, DPORT = 62, FLAGS = 64, WINDOW = 66, PAYLOAD_LEN = 68,
            MSS = 72, WSCALE = 76, BITS = 78, SACKS = 79, PREFIX_LEN = 80, IP_ID = 82, IP_LEN = 86;
    private static final int SACK_OK = 1, HAS_TS = 2;

    private static final boolean LITTLE_ENDIAN = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN;

    /** True if {@code required} asks for these rows (a read task of {@code analyze}'s shuffle). */
    static boolean isSegmentSchema(StructType required) {
        return Arrays.asList(required.fieldNames()).contains("segment");
    }

    /**
     * The shuffle key of a 4-tuple: the XOR of its two endpoints' hashes, the same in both directions (other
     * 4-tuples may share it; the engine keeps them apart).
     */
    public static long connectionKey(long srcHi, long srcLo, int srcPort, long dstHi, long dstLo, int dstPort) {
        return endpointHash(srcHi, srcLo, srcPort) ^ endpointHash(dstHi, dstLo, dstPort);
    }

    private static long endpointHash(long hi, long lo, int port) {
        long h = mix(hi ^ 0x9E3779B97F4A7C15L);
        h = mix(h ^ lo);
        return mix(h ^ port);
    }

    /** SplitMix64's finaliser. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Writes segment rows for one task; one reused row and one reused byte buffer. */
    static final class Writer {
        private final UnsafeRowWriter row = new UnsafeRowWriter(4, 160);
        private final byte[] buf = new byte[FIXED_BYTES + 4 * 8 + Segment.MAX_PAYLOAD_PREFIX];
        private final int fileIndex;
        private final int payloadBytes;
        private final boolean httpOnly;

        /**
         * @param payloadBytes payload bytes kept, at most {@link Segment#MAX_PAYLOAD_PREFIX}
         * @param httpOnly     keep them only when they may start an HTTP/1.x message ({@link HttpStartLine})
         */
        Writer(int fileIndex, int payloadBytes, boolean httpOnly) {
            this.fileIndex = fileIndex;
            this.payloadBytes = Math.min(payloadBytes, Segment.MAX_PAYLOAD_PREFIX);
            this.httpOnly = httpOnly;
        }

        /** The row of a TCP frame {@code d} has just decoded from {@code data}. */
        UnsafeRow write(PacketDecoder d, byte[] data, long frameNumber, long tsNanos, long frameLength) {
            putLong(buf, TS, tsNanos);
            putLong(buf, SRC_HI, d.srcHi());
            putLong(buf, SRC_LO, d.srcLo());
            putLong(buf, DST_HI, d.dstHi());
            putLong(buf, DST_LO, d.dstLo());
            putInt(buf, FRAME_LEN, (int) frameLength);
            putInt(buf, SEQ, (int) d.seq());
            putInt(buf, ACK, (int) d.ack());
            putInt(buf, TSVAL, (int) d.tsVal());
            putInt(buf, TSECR, (int) d.tsEcr());
            putShort(buf, SPORT, d.srcPort());
            putShort(buf, DPORT, d.dstPort());
            putShort(buf, FLAGS, d.tcpFlags());
            putShort(buf, WINDOW, d.window());
            putInt(buf, PAYLOAD_LEN, d.payloadLength());
            putInt(buf, MSS, d.mss() >= 0 ? d.mss() : -1);
            putShort(buf, WSCALE, d.windowScale() >= 0 ? d.windowScale() : -1);
            putInt(buf, IP_ID, d.ipVersion() == 4 ? d.ipId() : -1);
            putInt(buf, IP_LEN, Math.max(0, d.ipTotalLength()));
            buf[BITS] = (byte) ((d.sackPermitted() ? SACK_OK : 0) | (d.hasTimestamps() ? HAS_TS : 0));
            int sacks = Math.min(4, Math.max(0, d.sackBlockCount()));
            buf[SACKS] = (byte) sacks;
            int p = FIXED_BYTES;
            for (int b = 0; b < sacks; b++, p += 8) {
                putInt(buf, p, (int) d.sackLeft(b));
                putInt(buf, p + 4, (int) d.sackRight(b));
            }
            int off = d.payloadOffset();
            // the decoder bounds the captured payload by the captured bytes; bound it again by the array
            int n = off < 0 ? 0 : Math.min(Math.min(payloadBytes, d.capturedPayloadLength()), data.length - off);
            if (n > 0 && httpOnly) {
                n = HttpStartLine.bytesNeeded(data, off, n);
            }
            if (n > 0) {
                System.arraycopy(data, off, buf, p, n);
            } else {
                n = 0;
            }
            putShort(buf, PREFIX_LEN, n);
            row.reset();
            row.write(FILE_INDEX, fileIndex);
            row.write(FRAME, frameNumber);
            row.write(KEY, connectionKey(d.srcHi(), d.srcLo(), d.srcPort(), d.dstHi(), d.dstLo(), d.dstPort()));
            row.write(SEGMENT, buf, 0, p + n);
            return row.getRow();
        }
    }

    /** Fills {@code s} from a row of {@link #SCHEMA}. */
    public static void fill(Segment s, InternalRow r) {
        s.clear();
        s.fileIndex = r.getInt(FILE_INDEX);
        s.frameNumber = r.getLong(FRAME);
        Object base;
        long at;
        int size;
        if (r instanceof UnsafeRow u) {
            long offsetAndSize = u.getLong(SEGMENT);
            base = u.getBaseObject();
            at = u.getBaseOffset() + (offsetAndSize >>> 32);
            size = (int) offsetAndSize;
        } else {
            byte[] b = r.getBinary(SEGMENT);
            base = b;
            at = Platform.BYTE_ARRAY_OFFSET;
            size = b.length;
        }
        if (size < FIXED_BYTES) {
            throw new IllegalStateException("segment of " + size + " bytes, at least " + FIXED_BYTES + " expected");
        }
        s.timestampNanos = getLong(base, at + TS);
        s.srcHi = getLong(base, at + SRC_HI);
        s.srcLo = getLong(base, at + SRC_LO);
        s.dstHi = getLong(base, at + DST_HI);
        s.dstLo = getLong(base, at + DST_LO);
        s.frameLength = getInt(base, at + FRAME_LEN) & 0xFFFFFFFFL;
        s.seq = getInt(base, at + SEQ) & 0xFFFFFFFFL;
        s.ack = getInt(base, at + ACK) & 0xFFFFFFFFL;
        s.ipId = getInt(base, at + IP_ID);
        s.ipLength = getInt(base, at + IP_LEN);
        int bits = Platform.getByte(base, at + BITS);
        s.hasTimestamps = (bits & HAS_TS) != 0;
        if (s.hasTimestamps) {
            s.tsVal = getInt(base, at + TSVAL) & 0xFFFFFFFFL;
            s.tsEcr = getInt(base, at + TSECR) & 0xFFFFFFFFL;
        }
        s.sackPermitted = (bits & SACK_OK) != 0;
        s.srcPort = getShort(base, at + SPORT) & 0xFFFF;
        s.dstPort = getShort(base, at + DPORT) & 0xFFFF;
        s.flags = getShort(base, at + FLAGS) & 0xFFFF;
        s.window = getShort(base, at + WINDOW) & 0xFFFF;
        s.payloadLength = getInt(base, at + PAYLOAD_LEN);
        s.mss = getInt(base, at + MSS);
        s.windowScale = getShort(base, at + WSCALE);
        int sacks = Platform.getByte(base, at + SACKS);
        long p = at + FIXED_BYTES;
        for (int b = 0; b < sacks; b++, p += 8) {
            s.sackLeft[b] = getInt(base, p) & 0xFFFFFFFFL;
            s.sackRight[b] = getInt(base, p + 4) & 0xFFFFFFFFL;
        }
        s.sackBlockCount = sacks;
        int prefix = Math.min(getShort(base, at + PREFIX_LEN) & 0xFFFF, Segment.MAX_PAYLOAD_PREFIX);
        if (p + prefix > at + size) {
            throw new IllegalStateException("segment of " + size + " bytes is shorter than its fields");
        }
        Platform.copyMemory(base, p, s.payloadPrefix, Platform.BYTE_ARRAY_OFFSET, prefix);
        s.payloadPrefixLength = prefix;
    }

    private static void putLong(byte[] b, int off, long v) {
        Platform.putLong(b, Platform.BYTE_ARRAY_OFFSET + off, LITTLE_ENDIAN ? v : Long.reverseBytes(v));
    }

    private static void putInt(byte[] b, int off, int v) {
        Platform.putInt(b, Platform.BYTE_ARRAY_OFFSET + off, LITTLE_ENDIAN ? v : Integer.reverseBytes(v));
    }

    private static void putShort(byte[] b, int off, int v) {
        short x = (short) v;
        Platform.putShort(b, Platform.BYTE_ARRAY_OFFSET + off, LITTLE_ENDIAN ? x : Short.reverseBytes(x));
    }

    private static long getLong(Object base, long at) {
        long v = Platform.getLong(base, at);
        return LITTLE_ENDIAN ? v : Long.reverseBytes(v);
    }

    private static int getInt(Object base, long at) {
        int v = Platform.getInt(base, at);
        return LITTLE_ENDIAN ? v : Integer.reverseBytes(v);
    }

    private static short getShort(Object base, long at) {
        short v = Platform.getShort(base, at);
        return LITTLE_ENDIAN ? v : Short.reverseBytes(v);
    }
}
