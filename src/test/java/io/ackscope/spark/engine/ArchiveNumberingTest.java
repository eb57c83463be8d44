package io.ackscope.spark.engine;

import io.ackscope.spark.source.CaptureFile;
import io.ackscope.spark.source.FilePlan;
import io.ackscope.spark.source.ReadPlan;
import io.ackscope.spark.source.SplitStats;

import io.ackscope.capture.Archive;
import io.ackscope.capture.ArchiveStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which files of an archive are compared for overlaps ({@link ArchiveNumbering#overlapTasks}): exactly the earlier
 * files of the same source whose latest timestamp is at or after a file's first, whatever the shape of the overlaps
 * (the search keeps only the files still open instead of scanning every earlier file).
 */
class ArchiveNumberingTest {
    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void aLongFileOverlapsEveryFileItSpansAndChainsAreFollowed() throws IOException {
        // source a: one long file over [0, 100] s, then short ones; b: a clean rotation with one overlap
        Map<String, long[]> spans = new HashMap<>();
        spans.put("a/zz-long", new long[] {0, 100});
        spans.put("a/c1", new long[] {10, 20});
        spans.put("a/b2", new long[] {30, 40});
        spans.put("a/a3", new long[] {35, 50});
        spans.put("a/d4", new long[] {120, 130});
        spans.put("b/1", new long[] {0, 9});
        spans.put("b/2", new long[] {10, 19});
        spans.put("b/3", new long[] {19, 29});
        Plan p = plan(spans);
        List<String> got = new ArrayList<>();
        for (ArchiveNumbering.OverlapTask t : ArchiveNumbering.overlapTasks(p.plan, p.perFile)) {
            got.add(rel(t.path()) + " <- " + t.earlier().stream().map(this::rel).toList());
        }
        assertEquals(List.of("a/c1 <- [a/zz-long]", "a/b2 <- [a/zz-long]", "a/a3 <- [a/zz-long, a/b2]",
                "b/3 <- [b/2]"), got);
    }

    @Test
    void randomArchivesGiveEveryOverlappingPairOfEachSource() throws IOException {
        Random r = new Random(16);
        Map<String, long[]> spans = new HashMap<>();
        for (int i = 0; i < 300; i++) {
            long first = r.nextInt(2_000);
            // mostly short files, some that run long, a few without a timestamp after the first (null stats)
            long last = r.nextInt(10) == 0 ? first + r.nextInt(1_000) : first + r.nextInt(8);
            spans.put((i % 3 == 0 ? "s1/" : "s2/") + "f" + i, r.nextInt(25) == 0 ? new long[] {first}
                    : new long[] {first, last});
        }
        Plan p = plan(spans);
        List<ArchiveNumbering.OverlapTask> want = everyPair(p);
        assertTrue(want.size() > 100, "the random archive has overlaps: " + want.size());
        assertEquals(want, ArchiveNumbering.overlapTasks(p.plan, p.perFile));
    }

    /** The definition, pair by pair. */
    private static List<ArchiveNumbering.OverlapTask> everyPair(Plan p) {
        List<ArchiveNumbering.OverlapTask> out = new ArrayList<>();
        List<CaptureFile> files = p.plan.files();
        for (int j = 0; j < files.size(); j++) {
            List<String> earlier = new ArrayList<>();
            long first = p.plan.archive().files().get(j).firstNanos();
            for (int i = 0; i < j; i++) {
                SplitStats s = p.perFile.get(i);
                if (files.get(i).source() == files.get(j).source() && s != null && s.lastNanos() >= first) {
                    earlier.add(files.get(i).path());
                }
            }
            if (!earlier.isEmpty()) {
                out.add(new ArchiveNumbering.OverlapTask(j, files.get(j).path(), earlier));
            }
        }
        return out;
    }

    private record Plan(ReadPlan plan, List<SplitStats> perFile) {
    }

    /**
     * Writes one single-record pcap per entry (name relative to the archive: its directory is its source; span: the
     * first timestamp and, if given, the latest the read stage saw, else no statistics for the file), lists the
     * archive as {@code analyze} does, and gives the read stage's figures in the listing's order.
     */
    private Plan plan(Map<String, long[]> spans) throws IOException {
        for (Map.Entry<String, long[]> e : spans.entrySet()) {
            Path f = dir.resolve(e.getKey() + ".pcap");
            Files.createDirectories(f.getParent());
            pcap(f, e.getValue()[0], e.getKey().hashCode());
        }
        Archive a = Archive.list(List.of(dir.toString()), ArchiveStore.local(), Archive.SourceRule.DIRECTORY);
        List<CaptureFile> files = new ArrayList<>();
        List<FilePlan> filePlans = new ArrayList<>();
        List<SplitStats> perFile = new ArrayList<>();
        for (Archive.Member m : a.files()) {
            files.add(new CaptureFile(m.index(), m.path(), m.length(), new String[0], m.source(),
                    a.sources().get(m.source())));
            filePlans.add(new FilePlan(1, null));
            long[] span = spans.get(rel(m.path()));
            assertEquals(span[0] * SECOND, m.firstNanos(), m.path());
            SplitStats s = null;
            if (span.length > 1) {
                s = new SplitStats(m.index(), 0);
                s.record(span[1] * SECOND, true, 0, 0, 1, 0, 0);   // the file's last timestamp
            }
            perFile.add(s);
        }
        return new Plan(new ReadPlan(files, filePlans, List.of(), a), perFile);
    }

    private String rel(String path) {
        String r = path.substring(dir.toString().length() + 1);
        return r.substring(0, r.length() - ".pcap".length());
    }

    /**
     * A classic pcap (microseconds, Ethernet) with one 14-byte record at {@code second}, {@code salt} in its bytes
     * (files with the same first timestamp are not copies of each other).
     */
    private static void pcap(Path f, long second, int salt) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(24 + 16 + 14).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65_535).putInt(1);
        b.putInt((int) second).putInt(0).putInt(14).putInt(14).putInt(salt).put(new byte[10]);
        Files.write(f, b.array());
    }
}
