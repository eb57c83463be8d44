package io.ackscope.spark.source;

import io.ackscope.spark.SparkTests;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.SeekableInput;
import io.ackscope.capture.SplitLocator;
import io.ackscope.tables.PacketSchema;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reading a capture in splits returns exactly the frames of reading it whole (same frame numbers, offsets,
 * timestamps and lengths; none lost or doubled), for every corpus capture and split sizes from 1 KB up, and for
 * crafted captures whose payloads imitate record headers. This drives the data source's own partition reader and
 * planner (the code Spark runs), with the planning pass run in a loop instead of a Spark job.
 */
@Tag("slow")
class PcapSplitExactnessTest {
    static final StructType COLUMNS = new StructType(java.util.Arrays.stream(SparkSchemas.of(PacketSchema.TABLE).fields())
            .filter(f -> List.of("frame", "record_offset", "frame_time_ns", "captured_length").contains(f.name()))
            .toArray(org.apache.spark.sql.types.StructField[]::new));
    static final long[] SPLIT_SIZES = {1024, 4096, 16 * 1024, 64 * 1024, 1 << 20};

    @TempDir
    static Path tmp;
    static Configuration conf = new Configuration();

    static Path fooling;
    static Path lookalike;

    @BeforeAll
    static void craft() throws IOException {
        fooling = tmp.resolve("fooling.pcap");
        Files.write(fooling, CraftedPcap.build(400, true));
        lookalike = tmp.resolve("lookalike.pcap");
        Files.write(lookalike, CraftedPcap.build(400, false));
    }

    static final Function<List<SplitCounter.Task>, List<SplitCounter.Result>> LOCAL_COUNTER = tasks -> {
        List<SplitCounter.Result> out = new ArrayList<>();
        for (SplitCounter.Task t : tasks) {
            try {
                out.add(SplitCounter.count(t, conf));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return out;
    };

    static ReadPlan plan(Path file, long splitBytes) {
        return plan(file, splitBytes, 0);
    }

    /** With {@code parallelism > 0}, splits are also cut where frames are dense (a high value cuts often). */
    static ReadPlan plan(Path file, long splitBytes, int parallelism) {
        CaptureFile f = new CaptureFile(0, file.toUri().toString(), file.toFile().length(), new String[0]);
        return CapturePlanner.plan(List.of(f), new CapturePlanner.Sizing(splitBytes, 0, parallelism), LOCAL_COUNTER);
    }

    /** Frames as "number offset timestamp length", read through the data source's partition reader. */
    static List<String> read(ReadPlan plan) throws IOException {
        List<String> out = new ArrayList<>();
        List<CapturePartition> parts = new ArrayList<>(plan.partitions());
        // Read the splits one by one, in file order, to compare sequences.
        List<CaptureSplit> splits = new ArrayList<>();
        parts.forEach(p -> splits.addAll(p.splits()));
        splits.sort((a, b) -> Integer.compare(a.splitIndex(), b.splitIndex()));
        for (CaptureSplit s : splits) {
            try (PcapPartitionReader r = new PcapPartitionReader(new CapturePartition(List.of(s)), COLUMNS, conf, 0,
                    false, false, false, null, io.ackscope.tcp.FrameFilter.NONE)) {
                while (r.next()) {
                    InternalRow row = r.get();
                    out.add(row.getLong(0) + " " + row.getLong(1) + " " + (row.isNullAt(2) ? "-" : row.getLong(2))
                            + " " + row.getInt(3));
                }
            }
        }
        return out;
    }

    /** The same frames straight from the capture reader. */
    static List<String> direct(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        try (CaptureReader r = CaptureReader.open(file)) {
            while (r.next()) {
                out.add(r.frameNumber() + " " + r.recordOffset() + " "
                        + (r.hasTimestamp() ? Long.toString(r.timestampNanos()) : "-") + " " + r.capturedLength());
            }
        } catch (CaptureException e) {
            // Damaged: the frames before the damage are the whole-file read.
        }
        return out;
    }

    /** Equal lists, reporting the first difference only (the lists are long). */
    static void assertSameFrames(List<String> expected, List<String> actual, String what) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), what + ": frame at index " + i);
        }
        assertEquals(expected.size(), actual.size(), what + ": frame count");
    }

    @Test
    void wholeFileReadOfEveryCorpusCaptureEqualsTheReader() throws IOException {
        for (Path f : SparkTests.corpusCaptures()) {
            assertSameFrames(direct(f), read(plan(f, Long.MAX_VALUE / 4)), f.getFileName().toString());
        }
    }

    @Test
    void splitReadsOfEveryCorpusCaptureEqualTheWholeFileRead() throws IOException {
        int split = 0;
        for (Path f : SparkTests.corpusCaptures()) {
            List<String> whole = direct(f);
            for (long size : SPLIT_SIZES) {
                ReadPlan p = plan(f, size);
                if (p.filePlans().get(0).splits() > 1) {
                    split++;
                }
                assertSameFrames(whole, read(p), f.getFileName() + " in splits of " + size + " bytes");
            }
        }
        assertTrue(split > 50, "files actually read in several splits: " + split);
    }

    @Test
    void splitsCutWhereFramesAreDenseEqualTheWholeFileRead() throws IOException {
        int cutFurther = 0;
        for (Path f : SparkTests.corpusCaptures()) {
            List<String> whole = direct(f);
            for (long size : new long[]{4096, 64 * 1024, 1 << 20}) {
                ReadPlan bytesOnly = plan(f, size);
                // 16 cores' worth of frame targets: most candidate splits are cut into several
                ReadPlan p = plan(f, size, 16);
                if (p.filePlans().get(0).splits() > bytesOnly.filePlans().get(0).splits()) {
                    cutFurther++;
                }
                assertSameFrames(whole, read(p), f.getFileName() + " in splits of " + size + " bytes, cut by frames");
            }
        }
        assertTrue(cutFurther >= 5, "plans with more splits when cut by frames: " + cutFurther);
    }

    /** A counter that reports a fixed frame count per candidate, spread evenly over its cuts. */
    static Function<List<SplitCounter.Task>, List<SplitCounter.Result>> evenCounter(long... frames) {
        return tasks -> {
            List<SplitCounter.Result> out = new ArrayList<>();
            for (int i = 0; i < tasks.size(); i++) {
                long[] cuts = tasks.get(i).cuts();
                long[] before = new long[cuts.length];
                for (int c = 0; c < cuts.length; c++) {
                    before[c] = frames[i] * (c + 1) / (cuts.length + 1);
                }
                out.add(new SplitCounter.Result(frames[i], -1, null, before));
            }
            return out;
        };
    }

    @Test
    void onlyCandidatesWithMoreThanTwiceTheAverageFramesAreCut() {
        CaptureFile f = new CaptureFile(0, "file:/x.pcap", 4 * 800, new String[0]);
        CapturePlanner.Sizing sizing = new CapturePlanner.Sizing(800, 0, 2);
        // even density: byte-sized splits only
        ReadPlan even = CapturePlanner.plan(List.of(f), sizing, evenCounter(100, 100, 100, 100));
        assertEquals(4, even.filePlans().get(0).splits());
        // 1000 + 3 x 100 frames: target max(1300 / 8, 2 x 1300 / 4) = 650, so the dense candidate is cut once, at
        // its 6th of 7 cuts (750 frames), and the split after the cut starts at frame 751
        ReadPlan dense = CapturePlanner.plan(List.of(f), sizing, evenCounter(1000, 100, 100, 100));
        assertEquals(5, dense.filePlans().get(0).splits());
        List<CaptureSplit> splits = new ArrayList<>();
        dense.partitions().forEach(p -> splits.addAll(p.splits()));
        splits.sort((a, b) -> Integer.compare(a.splitIndex(), b.splitIndex()));
        assertEquals(List.of(1L, 751L, 1001L, 1101L, 1201L), splits.stream().map(CaptureSplit::firstFrame).toList());
        assertEquals(List.of(0L, 600L, 800L, 1600L, 2400L), splits.stream().map(CaptureSplit::start).toList());
        // the two halves of the dense candidate weigh a whole split each: not packed together
        assertTrue(dense.partitions().stream().noneMatch(p -> p.splits().size() > 1
                && p.splits().stream().allMatch(s -> s.start() < 800)), dense.partitions().toString());
    }

    @Test
    void payloadsThatEndExactlyOnARecordFoolTheLocatorAndTheFileIsReadWhole() throws IOException {
        List<String> whole = direct(fooling);
        assertEquals(400, whole.size());
        for (long size : SPLIT_SIZES) {
            ReadPlan p = plan(fooling, size);
            assertSameFrames(whole, read(p), "fooling.pcap in splits of " + size);
            assertSameFrames(whole, read(plan(fooling, size, 16)), "fooling.pcap in splits of " + size + ", by frames");
            if (size < fooling.toFile().length()) {
                assertEquals(1, p.filePlans().get(0).splits(), "fallback to a whole-file read at " + size);
                assertTrue(p.filePlans().get(0).wholeReason() != null);
            }
        }
    }

    /**
     * The planning walk offers a cut of a dense split only where the locator's boundary after the cut is a record of
     * the real chain; where the locator is fooled by a fake header inside a payload, the chain steps over it and
     * the cut is refused (-1), whatever the planner would make of it. In fooling.pcap every record carries such a
     * header; lookalike.pcap's lookalikes fool the locator only now and then.
     */
    @Test
    void cutsWhoseBoundaryTheRecordChainStepsOverAreRefused() throws Exception {
        int[] fooled = cutsRefusedAndOffered(fooling);
        assertTrue(fooled[0] > 100, "fooling.pcap: cuts the chain steps over: " + fooled[0]);
        int[] plain = cutsRefusedAndOffered(lookalike);
        assertTrue(plain[1] > 100 && plain[0] < plain[1] / 10, "lookalike.pcap: cuts at real records " + plain[1]
                + ", refused " + plain[0]);
    }

    /** Checks the walk's answer for a cut one byte into every inner record of {@code file}: {refused, offered}. */
    private static int[] cutsRefusedAndOffered(Path file) throws Exception {
        List<Long> offsets = new ArrayList<>();
        try (CaptureReader r = CaptureReader.open(file)) {
            while (r.next()) {
                offsets.add(r.recordOffset());
            }
        }
        long[] cuts = new long[offsets.size() - 2];
        for (int i = 0; i < cuts.length; i++) {
            cuts[i] = offsets.get(i + 1) + 1;
        }
        SplitCounter.Result result = SplitCounter.count(new SplitCounter.Task(file.toUri().toString(), 0, 0,
                file.toFile().length(), cuts), conf);
        assertEquals(offsets.size(), result.frames());
        int[] counts = new int[2];
        try (SeekableInput in = SeekableInput.open(file)) {
            SplitLocator loc = SplitLocator.open(in, file.toString());
            for (int i = 0; i < cuts.length; i++) {
                long boundary = loc.boundaryAtOrAfter(cuts[i]);
                int real = offsets.indexOf(boundary);
                if (real < 0) {
                    assertEquals(-1, result.framesBefore()[i],
                            file + ": cut " + cuts[i] + ", fake boundary " + boundary);
                    counts[0]++;
                } else {
                    // the frames before the real record the split would start at
                    assertEquals(real, result.framesBefore()[i], file + ": cut " + cuts[i] + ", record " + (real + 1));
                    counts[1]++;
                }
            }
        }
        return counts;
    }

    @Test
    void payloadsFullOfRecordHeaderLookalikesDoNotStopSplitting() throws IOException {
        List<String> whole = direct(lookalike);
        assertEquals(400, whole.size());
        for (long size : SPLIT_SIZES) {
            ReadPlan p = plan(lookalike, size);
            assertSameFrames(whole, read(p), "lookalike.pcap in splits of " + size);
            assertSameFrames(whole, read(plan(lookalike, size, 16)), "lookalike.pcap in splits of " + size
                    + ", by frames");
            if (size * 2 < lookalike.toFile().length()) {
                assertTrue(p.filePlans().get(0).splits() > 1, "still split at " + size);
            }
        }
    }

    /** Classic pcap files whose TCP payloads carry fake pcap record headers. */
    static final class CraftedPcap {
        private CraftedPcap() {
        }

        /**
         * @param endOnRecord each fake header's lengths make it end exactly where the next real record starts (a
         *                    chain the locator cannot tell from a real one); otherwise the fake headers chain to each
         *                    other inside the payload and then run into payload bytes
         */
        static byte[] build(int packets, boolean endOnRecord) {
            int payload = 600;
            int frameLen = 14 + 20 + 20 + payload;
            ByteBuffer b = ByteBuffer.allocate(24 + packets * (16 + frameLen)).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4) // magic, version 2.4
                    .putInt(0).putInt(0).putInt(2048).putInt(1);             // thiszone, sigfigs, snaplen, Ethernet
            long sec = 1_700_000_000L;
            for (int i = 0; i < packets; i++) {
                int usec = i * 1000 % 1_000_000;
                b.putInt((int) (sec + i / 1000)).putInt(usec).putInt(frameLen).putInt(frameLen);
                int frameStart = b.position();
                // Ethernet: dst, src, IPv4
                b.put(new byte[]{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 6}).order(ByteOrder.BIG_ENDIAN).putShort((short) 0x0800);
                // IPv4: version/IHL, TOS, total length, id, flags/fragment, TTL, TCP, checksum, src, dst
                b.put((byte) 0x45).put((byte) 0).putShort((short) (20 + 20 + payload)).putShort((short) i)
                        .putShort((short) 0x4000).put((byte) 64).put((byte) 6).putShort((short) 0)
                        .putInt(0x0a000001).putInt(0x0a000002);
                // TCP: ports, seq, ack, data offset 5 + ACK|PSH, window, checksum, urgent
                b.putShort((short) 40000).putShort((short) 80).putInt(1000 + i * payload).putInt(1)
                        .putShort((short) 0x5018).putShort((short) 512).putShort((short) 0).putShort((short) 0);
                b.order(ByteOrder.LITTLE_ENDIAN);
                int payloadStart = b.position();
                if (endOnRecord) {
                    // Near the payload's end, a fake header of an 8-byte record that ends exactly at the next real
                    // header: a split starting anywhere before it in this packet sees a valid chain there first.
                    while (b.position() < frameStart + frameLen - 24) {
                        b.put((byte) 0xee);
                    }
                    b.putInt((int) (sec + i / 1000)).putInt(usec).putInt(8).putInt(8);
                } else {
                    // Fake headers of 16-byte records chained back to back, then bytes that break the chain.
                    while (b.position() + 32 <= payloadStart + payload - 16) {
                        b.putInt((int) (sec + i / 1000)).putInt(usec).putInt(16).putInt(16);
                        b.put(new byte[16]);
                    }
                }
                while (b.position() < frameStart + frameLen) {
                    b.put((byte) 0xee);
                }
            }
            return b.array();
        }
    }
}
