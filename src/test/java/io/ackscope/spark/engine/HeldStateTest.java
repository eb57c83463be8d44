package io.ackscope.spark.engine;

import io.ackscope.spark.carry.CarriedState;
import io.ackscope.capture.CaptureReader;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.CaptureFeeder;
import io.ackscope.tcp.HeldTuple;
import io.ackscope.tcp.TcpEngine;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.util.SerializableConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link HeldState}: the held 4-tuples of a real capture's engine go to a file and come back, each to exactly the
 * shuffle partition its frames go to; a damaged or foreign file is refused with its name and the byte offset.
 */
class HeldStateTest {
    private static final Configuration CONF = new Configuration();

    @TempDir
    Path dir;

    /** The 4-tuples held half-way through the churn capture (50 connections open). */
    private static List<HeldTuple> held() throws Exception {
        TcpEngine e = new TcpEngine(new AnalysisSink() {
        });
        List<io.ackscope.tcp.Segment> segs = churnSegments();
        segs.subList(0, segs.size() / 2).forEach(e::accept);
        return e.hold(UnaryOperator.identity());
    }

    private static void assertSame(List<HeldTuple> want, List<HeldTuple> got) {
        assertEquals(want.size(), got.size());
        for (int i = 0; i < want.size(); i++) {
            HeldTuple w = want.get(i);
            HeldTuple g = got.get(i);
            assertEquals(List.of(w.aHi(), w.aLo(), w.aPort(), w.bHi(), w.bLo(), w.bPort()),
                    List.of(g.aHi(), g.aLo(), g.aPort(), g.bHi(), g.bLo(), g.bPort()));
            assertArrayEquals(w.state(), g.state());
        }
    }

    /** The name the files of these tests are stamped with, as a run's held directory is named. */
    private static final String RUN = "held-20261204T235959-3f2a";

    @Test
    void heldTuplesComeBackEachInTheShufflePartitionOfItsFrames() throws Exception {
        List<HeldTuple> all = held();
        assertTrue(all.size() >= 20, "tuples held: " + all.size());
        int reducers = 4;
        // as the tasks of one run write them: each task its partition's 4-tuples
        for (int p = 0; p < reducers; p++) {
            int part = p;
            HeldState.write(CONF, new org.apache.hadoop.fs.Path(dir.toString(), HeldState.fileName(p)), RUN, p, reducers,
                    all.stream().filter(t -> HeldState.partitionOf(t, reducers) == part).toList());
        }
        List<HeldTuple> everything = new ArrayList<>();
        HeldState.read(new org.apache.hadoop.fs.Path(dir.toString()).getFileSystem(CONF),
                new org.apache.hadoop.fs.Path(dir.toString(), HeldState.fileName(0)), RUN, -1, reducers, everything);
        assertTrue(everything.stream().allMatch(t -> HeldState.partitionOf(t, reducers) == 0));
        // read back by a run with the same partitions and by one with another count: each 4-tuple once, where the
        // shuffle sends its frames (the key is direction-independent: a and b swapped give the same partition)
        for (int n : new int[] {reducers, 3, 7}) {
            Set<Integer> seen = new HashSet<>();
            int total = 0;
            for (int p = 0; p < n; p++) {
                List<HeldTuple> got = HeldState.read(CONF, new org.apache.hadoop.fs.Path(dir.toString()), RUN, p, n);
                for (HeldTuple t : got) {
                    assertEquals(p, HeldState.partitionOf(t, n));
                    assertEquals(p, SegmentShuffle.reducerOf(io.ackscope.spark.source.SegmentRows.connectionKey(
                            t.bHi(), t.bLo(), t.bPort(), t.aHi(), t.aLo(), t.aPort()), n));
                    assertTrue(seen.add(Arrays.hashCode(t.state())));
                }
                total += got.size();
            }
            assertEquals(all.size(), total, n + " partitions");
        }
        // the bytes survive the file: a new engine resumes them
        List<HeldTuple> part0 = HeldState.read(CONF, new org.apache.hadoop.fs.Path(dir.toString()), RUN, 0, reducers);
        assertSame(all.stream().filter(t -> HeldState.partitionOf(t, reducers) == 0).toList(), part0);
        TcpEngine b = new TcpEngine(new AnalysisSink() {
        });
        part0.forEach(b::resume);
        assertEquals(part0.size(), b.openTuples());
        assertEquals(List.of(), HeldState.read(CONF, new org.apache.hadoop.fs.Path(dir.toString(), "none"), RUN, 0, 4));
    }

    @Test
    void damagedFilesAreRefusedWithTheirNameAndOffset() throws Exception {
        List<HeldTuple> all = held().subList(0, 3);
        Path file = dir.resolve(HeldState.fileName(2));
        HeldState.write(CONF, new org.apache.hadoop.fs.Path(file.toString()), RUN, 2, 5, all);
        byte[] good = Files.readAllBytes(file);
        List<HeldTuple> back = new ArrayList<>();
        HeldState.read(fs(), new org.apache.hadoop.fs.Path(file.toString()), RUN, -1, 5, back);
        assertSame(all, back);
        // truncations: inside the header and the end, and throughout the records
        for (int len = 0; len < good.length; len += len < 40 || len > good.length - 40 ? 1 : 23) {
            Files.write(file, Arrays.copyOf(good, len));
            IOException e = assertThrows(IOException.class, () -> HeldState.read(fs(),
                    new org.apache.hadoop.fs.Path(file.toString()), RUN, -1, 5, new ArrayList<>()), "cut at " + len);
            assertTrue(e.getMessage().contains(file.getFileName().toString()) && e.getMessage().contains(": offset "),
                    e.getMessage());
        }
        // a changed byte in a record's state: its checksum, at the record's offset
        byte[] bad = good.clone();
        int firstRecord = 7 + 1 + 2 + RUN.length() + 8;
        bad[firstRecord + 4 + 40 + 10] ^= 1;
        Files.write(file, bad);
        IOException e = assertThrows(IOException.class, () -> HeldState.read(fs(),
                new org.apache.hadoop.fs.Path(file.toString()), RUN, -1, 5, new ArrayList<>()));
        assertTrue(e.getMessage().endsWith(": offset " + firstRecord + ": record checksum mismatch"), e.getMessage());
        // another version of the format, and another kind of file
        bad = good.clone();
        bad[7] = (byte) (HeldState.VERSION + 1);
        Files.write(file, bad);
        e = assertThrows(IOException.class, () -> HeldState.read(fs(), new org.apache.hadoop.fs.Path(file.toString()),
                RUN, -1, 5, new ArrayList<>()));
        assertTrue(e.getMessage().contains("re-run without --incremental"), e.getMessage());
        // an older run's file put back under this run's name: refused, naming both runs
        Files.write(file, good);
        e = assertThrows(IOException.class, () -> HeldState.read(fs(), new org.apache.hadoop.fs.Path(file.toString()),
                "held-20261205T000000-later", -1, 5, new ArrayList<>()));
        assertTrue(e.getMessage().endsWith(": offset 8: written by run " + RUN + ", not held-20261205T000000-later"
                + " (the held state of another run put in its place?)"), e.getMessage());
        Files.write(file, "not held state at all".getBytes());
        e = assertThrows(IOException.class, () -> HeldState.read(fs(), new org.apache.hadoop.fs.Path(file.toString()),
                RUN, -1, 5, new ArrayList<>()));
        assertTrue(e.getMessage().endsWith(": offset 0: not a held-state file"), e.getMessage());
    }

    @Test
    void dirsKeepEachSourceAndPassApart() throws Exception {
        List<HeldTuple> all = held();
        SerializableConfiguration conf = new SerializableConfiguration(CONF);
        CarriedState.Held first = new CarriedState.Held(CarriedState.allSources(null), dir.resolve("run1").toString(), 1,
                conf, false);
        assertEquals(List.of(), first.resumed(EngineCarry.Kind.ENGINE, 0, "a"));
        first.held(EngineCarry.Kind.ENGINE, 0, "a/b=c:d", all);
        first.held(EngineCarry.Kind.BOUNDARIES, 0, "a/b=c:d", all.subList(0, 1));
        CarriedState.Held second = new CarriedState.Held(CarriedState.allSources(dir.resolve("run1").toString()),
                dir.resolve("run2").toString(), 1, conf, false);
        assertSame(all, second.resumed(EngineCarry.Kind.ENGINE, 0, "a/b=c:d"));
        assertSame(all.subList(0, 1), second.resumed(EngineCarry.Kind.BOUNDARIES, 0, "a/b=c:d"));
        assertEquals(List.of(), second.resumed(EngineCarry.Kind.ENGINE, 0, "a"));
    }

    @Test
    void openConnectionsValuesTravelWithTheirTupleAndComeBackWhole() throws Exception {
        List<io.ackscope.tcp.Segment> segs = churnSegments();
        // the values pass 2 keeps per open connection (here: data RTTs and ACK delays, in microseconds)
        java.util.Map<io.ackscope.tcp.ConnectionId, io.ackscope.tcp.ValueCounts[]> open = new java.util.HashMap<>();
        TcpEngine e = new TcpEngine(new AnalysisSink() {
            private io.ackscope.tcp.ValueCounts counts(io.ackscope.tcp.ConnectionId id, int metric) {
                io.ackscope.tcp.ValueCounts[] v = open.computeIfAbsent(id,
                        k -> new io.ackscope.tcp.ValueCounts[io.ackscope.tcp.EndpointAggregate.METRICS]);
                return v[metric] == null ? v[metric] = new io.ackscope.tcp.ValueCounts() : v[metric];
            }

            @Override
            public void onRttSample(io.ackscope.tcp.RttSample x) {
                counts(x.connection(), io.ackscope.tcp.EndpointAggregate.DATA_RTT).add(x.valueNanos() / 1000);
            }

            @Override
            public void onAckDelay(io.ackscope.tcp.AckDelay x) {
                counts(x.connection(), io.ackscope.tcp.EndpointAggregate.ACK_DELAY).add(x.valueNanos() / 1000);
            }

            @Override
            public void onConnection(io.ackscope.tcp.ConnectionRecord c) {
                open.remove(c.id());
            }
        });
        segs.subList(0, segs.size() / 2).forEach(e::accept);
        UnaryOperator<io.ackscope.tcp.ConnectionId> ids = id -> EngineCarry.carried(id, id.stream() + 100, 0);
        List<HeldTuple> held = e.hold(ids);
        List<HeldTuple> values = OpenValues.of(held, open, ids);
        assertTrue(open.size() >= 10, "open connections with values: " + open.size());
        assertEquals(open.size(), values.size(), "every open connection's values found their 4-tuple");
        for (HeldTuple v : values) {
            assertEquals(1, held.stream().filter(h -> h.aHi() == v.aHi() && h.aLo() == v.aLo() && h.aPort() == v.aPort()
                    && h.bHi() == v.bHi() && h.bLo() == v.bLo() && h.bPort() == v.bPort()).count());
            OpenValues.Open o = OpenValues.read(v.state());
            assertTrue(EngineCarry.isCarried(o.id()));
            io.ackscope.tcp.ConnectionId original = open.keySet().stream()
                    .filter(id -> ids.apply(id).equals(o.id())).findFirst().orElseThrow();
            for (int m = 0; m < io.ackscope.tcp.EndpointAggregate.METRICS; m++) {
                assertEquals(pairs(open.get(original)[m]), pairs(o.values()[m]), "metric " + m);
            }
        }
        byte[] state = values.get(0).state();
        for (int len = 0; len < state.length; len++) {
            byte[] cut = Arrays.copyOf(state, len);
            assertThrows(IOException.class, () -> OpenValues.read(cut), "cut at " + len);
        }
        byte[] other = state.clone();
        other[0] = 9;
        IOException x = assertThrows(IOException.class, () -> OpenValues.read(other));
        assertTrue(x.getMessage().contains("re-run without --incremental"), x.getMessage());
    }

    private static List<List<Long>> pairs(io.ackscope.tcp.ValueCounts v) {
        List<List<Long>> out = new ArrayList<>();
        if (v != null) {
            v.forEach((value, count) -> out.add(List.of(value, count)));
        }
        return out;
    }

    private static org.apache.hadoop.fs.FileSystem fs() throws IOException {
        return org.apache.hadoop.fs.FileSystem.getLocal(CONF).getRaw();     // the test changes the bytes: no .crc
    }

    /** Every TCP segment of lab-cause-churn, copied, as the engine gets them. */
    private static List<io.ackscope.tcp.Segment> churnSegments() throws Exception {
        List<io.ackscope.tcp.Segment> segs = new ArrayList<>();
        try (CaptureReader r = CaptureReader.open(Path.of("sample-pcaps", "lab-cause-churn.pcap.gz"))) {
            new CaptureFeeder().feed(r, 0, new TcpEngine(new AnalysisSink() {
                @Override
                public void onFrame(io.ackscope.tcp.Segment s, io.ackscope.tcp.FrameAnalysis a) {
                    segs.add(new io.ackscope.tcp.Segment().copyFrom(s));
                }
            }));
        }
        return segs;
    }
}
