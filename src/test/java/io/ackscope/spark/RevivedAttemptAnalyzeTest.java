package io.ackscope.spark;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An unanswered attempt that the engine emits after the attempt timeout (60 s) and that a later packet of its
 * 4-tuple continues keeps its stream, as in tshark, and {@code analyze} writes one {@code connections} row for it:
 * the complete one. The capture is written here frame by frame.
 */
class RevivedAttemptAnalyzeTest {
    @TempDir
    static Path tmp;
    static SparkSession spark;

    @BeforeAll
    static void setUp() {
        spark = SparkTests.session("RevivedAttemptAnalyzeTest");
    }

    @AfterAll
    static void tearDown() {
        spark.stop();
    }

    private static final int CLIENT = 0x0A000001, SERVER = 0x0A000002;   // 10.0.0.1, 10.0.0.2
    private static final int SYN = 0x02, RST = 0x04, ACK = 0x10;

    /**
     * Stream 0: a connection on port 40009 with a keep-alive every 5 s, so capture time moves and the sweep runs.
     * Stream 1: port 40000's SYN at 1 s, answered at 100 s (evicted at about 61 s, its tombstone kept to 121 s) and
     * reset by the client. Stream 2: port 40001's SYN at 101 s.
     */
    private static byte[] capture() {
        return capture(false);
    }

    /** {@link #capture()}, with {@code synAgain} a retransmission of port 40000's SYN at 3 s. */
    private static byte[] capture(boolean synAgain) {
        return capture(synAgain, 0, Long.MAX_VALUE);
    }

    /** {@link #capture(boolean)}'s frames from {@code fromMicros} to before {@code toMicros} alone. */
    private static byte[] capture(boolean synAgain, long fromMicros, long toMicros) {
        return capture(synAgain, fromMicros, toMicros, true);
    }

    /** {@link #capture(boolean, long, long)}, port 40000's SYN answered at 100 s only when {@code answered}. */
    private static byte[] capture(boolean synAgain, long fromMicros, long toMicros, boolean answered) {
        long[] w = {fromMicros, toMicros};
        ByteBuffer b = ByteBuffer.allocate(24 + 64 * (16 + 54));
        b.order(ByteOrder.LITTLE_ENDIAN).putInt(0xA1B2C3D4).putShort((short) 2).putShort((short) 4).putInt(0)
                .putInt(0).putInt(65535).putInt(1);      // pcap header: v2.4, snaplen 65535, Ethernet
        frame(b, w, 0, 40009, true, SYN, 9000, 0);
        frame(b, w, 0, 40009, false, SYN | ACK, 9900, 9001);
        frame(b, w, 0, 40009, true, ACK, 9001, 9901);
        frame(b, w, 1_000_000, 40000, true, SYN, 1000, 0);
        if (synAgain) {
            frame(b, w, 3_000_000, 40000, true, SYN, 1000, 0);
        }
        for (long t = 5_000_000; t < 100_000_000; t += 5_000_000) {
            frame(b, w, t, 40009, true, ACK, 9000, 9901);    // keep-alive (one byte before the next sequence number)
            frame(b, w, t + 100, 40009, false, ACK, 9901, 9001);
        }
        if (answered) {
            frame(b, w, 100_000_000, 40000, false, SYN | ACK, 5000, 1001);
            frame(b, w, 100_000_100, 40000, true, RST, 1001, 0);
        }
        frame(b, w, 101_000_000, 40001, true, SYN, 7000, 0);
        return Arrays.copyOf(b.array(), b.position());
    }

    /** One 54-byte frame: Ethernet, IPv4 (checksum 0), TCP without options or payload. */
    private static void frame(ByteBuffer b, long[] window, long micros, int clientPort, boolean fromClient, int flags,
                              long seq, long ack) {
        if (micros < window[0] || micros >= window[1]) {
            return;
        }
        b.order(ByteOrder.LITTLE_ENDIAN);
        b.putInt((int) (1_700_000_000L + micros / 1_000_000)).putInt((int) (micros % 1_000_000)).putInt(54)
                .putInt(54);                              // record header: seconds, µs, caplen, length
        b.order(ByteOrder.BIG_ENDIAN);
        b.putInt(0x02000000).putShort((short) (fromClient ? 2 : 1))          // destination MAC
                .putInt(0x02000000).putShort((short) (fromClient ? 1 : 2))   // source MAC
                .putShort((short) 0x0800);                                  // IPv4
        b.put((byte) 0x45).put((byte) 0).putShort((short) 40).putInt(0)      // version/IHL, TOS, length, id, frag
                .put((byte) 64).put((byte) 6).putShort((short) 0)            // TTL, TCP, checksum
                .putInt(fromClient ? CLIENT : SERVER).putInt(fromClient ? SERVER : CLIENT);
        b.putShort((short) (fromClient ? clientPort : 80)).putShort((short) (fromClient ? 80 : clientPort))
                .putInt((int) seq).putInt((int) ack)
                .put((byte) 0x50).put((byte) flags).putShort((short) 65535)  // data offset 5, flags, window
                .putInt(0);                                                  // checksum, urgent pointer
    }

    @Test
    void revivedAttemptIsOneConnectionsRowWithItsWholeConnection() throws IOException {
        Path pcap = tmp.resolve("revived-attempt.pcap");
        Files.write(pcap, capture());
        Path out = tmp.resolve("out");
        RunSummary s = Analyze.run(spark, new Analyze.Options(List.of(pcap.toString()), out.toString(), false,
                false, 2), new PrintStream(OutputStream.nullOutputStream()), false);
        assertEquals(1, s.attemptsEvicted());
        Map<Long, List<String>> byStream = new TreeMap<>();
        List<Long> streams = new ArrayList<>();
        for (Row r : spark.read().parquet(out.resolve("connections").toString()).collectAsList()) {
            long stream = r.getLong(r.fieldIndex("stream"));
            streams.add(stream);
            byStream.put(stream, List.of(String.valueOf(r.get(r.fieldIndex("client_port"))),
                    r.getString(r.fieldIndex("conn_state")),
                    String.valueOf(((Number) r.get(r.fieldIndex("client_packets"))).longValue()
                            + ((Number) r.get(r.fieldIndex("server_packets"))).longValue())));
        }
        assertEquals(3, streams.size(), "one row per stream: " + streams);
        assertEquals(List.of("40000", "RSTO", "3"), byStream.get(1L));
        assertEquals(List.of("40001", "S0", "1"), byStream.get(2L));
        assertEquals("40009", byStream.get(0L).get(0));
        // the latency summary counts the connection once too
        long connections = 0;
        for (Row r : spark.read().parquet(out.resolve("latency_summary").toString()).collectAsList()) {
            connections += ((Number) r.get(r.fieldIndex("connections"))).longValue();
        }
        assertEquals(3, connections);
    }

    @Test
    void anAttemptEvictedAndStillHeldAtTheEndIsOneConnectionsRow() throws IOException {
        // port 40000's SYNs at 1 and 3 s, never answered: evicted at about 61 s, its tombstone still held when the
        // capture ends at 101 s, so its record is final only then
        Path pcap = tmp.resolve("evicted-unanswered.pcap");
        Files.write(pcap, capture(true, 0, Long.MAX_VALUE, false));
        Path out = tmp.resolve("out-evicted-unanswered");
        RunSummary s = Analyze.run(spark, new Analyze.Options(List.of(pcap.toString()), out.toString(), false,
                false, 2), new PrintStream(OutputStream.nullOutputStream()), false);
        assertEquals(1, s.attemptsEvicted());
        Map<Long, List<String>> byStream = new TreeMap<>();
        for (Row r : spark.read().parquet(out.resolve("connections").toString()).collectAsList()) {
            byStream.put(r.getLong(r.fieldIndex("stream")), List.of(String.valueOf(r.get(r.fieldIndex("client_port"))),
                    r.getString(r.fieldIndex("conn_state")),
                    String.valueOf(((Number) r.get(r.fieldIndex("client_packets"))).longValue())));
        }
        assertEquals(List.of(0L, 1L, 2L), List.copyOf(byStream.keySet()));
        assertEquals(List.of("40000", "S0", "2"), byStream.get(1L));
        assertEquals(List.of("40001", "S0", "1"), byStream.get(2L));
        // its SYN retransmission counted once, with its one record: 2,000 ms lost
        assertEquals(List.of(1L, 1L, 2_000_000L), synFinding(out));
    }

    /** The SYN_RETRANSMISSION finding of port 40000's server endpoint: events, count, time lost (µs). */
    private static List<Long> synFinding(Path out) {
        for (Row r : spark.read().parquet(out.resolve("findings").toString()).collectAsList()) {
            if (r.getString(r.fieldIndex("cause")).equals("SYN_RETRANSMISSION")) {
                return List.of(((Number) r.get(r.fieldIndex("events"))).longValue(),
                        ((Number) r.get(r.fieldIndex("count"))).longValue(),
                        ((Number) r.get(r.fieldIndex("time_lost_us"))).longValue());
            }
        }
        return List.of();
    }

    @Test
    void aRevivedAttemptsSynRetransmissionIsOneFinding() throws IOException {
        Path pcap = tmp.resolve("revived-syn-again.pcap");
        Files.write(pcap, capture(true));
        Path out = tmp.resolve("out-syn-again");
        Analyze.run(spark, new Analyze.Options(List.of(pcap.toString()), out.toString(), false, false, 2),
                new PrintStream(OutputStream.nullOutputStream()), false);
        // counted with the evicted record and again with the complete one before: 2 events, 4,000 ms
        assertEquals(List.of(1L, 1L, 2_000_000L), synFinding(out));
    }

    @Test
    void anAttemptEvictedInOneFileAndRevivedInTheNextIsOneConnectionWhenTheFilesAreAppended() throws Exception {
        Path root = tmp.resolve("revived-archive");
        Path src = Files.createDirectories(root.resolve("src"));
        java.nio.file.attribute.FileTime old = java.nio.file.attribute.FileTime.fromMillis(0);
        // the attempt's SYNs at 1 and 3 s and its eviction at about 61 s are in the first file; its answer at 100 s
        // in the second, which an incremental run appends, resuming the held attempt
        Files.write(src.resolve("a.pcap"), capture(true, 0, 80_000_000));
        Files.setLastModifiedTime(src.resolve("a.pcap"), old);
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        Path out = tmp.resolve("out-revived-append");
        Analyze.Options o = new Analyze.Options(List.of(root.toString()), out.toString(), false, false, 2)
                .incremental(java.time.Duration.ZERO);
        Analyze.run(spark, o, quiet, false);
        Files.write(src.resolve("b.pcap"), capture(true, 80_000_000, Long.MAX_VALUE));
        Files.setLastModifiedTime(src.resolve("b.pcap"), old);
        assertEquals(1, Analyze.run(spark, o, quiet, false).files(), "the second file appended alone");
        Path ref = tmp.resolve("out-revived-ref");
        Analyze.run(spark, new Analyze.Options(List.of(root.toString()), ref.toString(), false, false, 2), quiet,
                false);
        assertEquals(List.of(), io.ackscope.tables.SameRows.differences(ref, out));
        assertEquals(List.of(1L, 1L, 2_000_000L), synFinding(out));
    }
}

