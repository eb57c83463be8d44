package io.ackscope.spark;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.Captures;
import io.ackscope.capture.FileGap;
import io.ackscope.probe.NetTestSupport;
import io.ackscope.tables.CaptureFilesTable;
import io.ackscope.tables.Column;
import io.ackscope.tables.ColumnType;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.EngineTables.Connections;
import io.ackscope.tables.PacketSchema;
import io.ackscope.tables.SchemaDoc;
import io.ackscope.tables.SourcesTable;
import io.ackscope.tables.TableReader;
import io.ackscope.tables.TableSchema;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code jobs/lab-rotated-capture} for about 3 s of load (as root; tcpdump on lo): one capture into one file and one
 * rotated by size ({@code tcpdump -C 1}: cap, cap1, ... cap12, names that do not sort in time), of the same traffic
 * at the same time. The rotated files together hold the single file's frames (by content: each capture stamps its
 * own copy of a frame, so the two timestamps differ); and, the rotated files being one capture source,
 * {@code analyze} of the rotated directory gives the single file's tables, times and frame positions aside.
 */
class LabRotatedCaptureTest {
    static final Column CROSSES_FILE_GAP = EngineTables.CONNECTIONS.column("crosses_file_gap");
    static final Column GAP_AFTER_FILES = SourcesTable.TABLE.column("gap_after_files");

    @TempDir
    static Path tmp;
    static Path lab;
    static String log;

    @BeforeAll
    static void runTheLab() throws Exception {
        NetTestSupport.requireRoot();
        if (!Files.isExecutable(Path.of("/usr/bin/tcpdump"))) {
            fail("/usr/bin/tcpdump is missing: install Debian's tcpdump (CI does)");
        }
        lab = tmp.resolve("lab");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        ProcessBuilder pb = new ProcessBuilder("jobs/lab-rotated-capture", "--out", lab.toString(), "-d", "3",
                "-R", "1000", "-c", "4", "-C", "1").redirectErrorStream(true)
                .redirectOutput(tmp.resolve("lab.log").toFile());
        pb.environment().put("ACKSCOPE", Path.of(System.getProperty("java.home"), "bin", "java") + " -Xmx256m -cp "
                + cp + " io.ackscope.cli.Main");
        Process p = pb.start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
            fail("lab-rotated-capture did not end in 180 s: " + Files.readString(tmp.resolve("lab.log")));
        }
        log = Files.readString(tmp.resolve("lab.log"), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), log);
    }

    /** "one captured N dropped D" and "rot captured N dropped D files F" of captures.txt. */
    static long[] counts(String which) throws IOException {
        String text = Files.readString(lab.resolve("captures.txt"));
        Matcher m = Pattern.compile("(?m)^" + which + " captured (\\d+) dropped (\\d+)").matcher(text);
        assertTrue(m.find(), text);
        return new long[]{Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
    }

    /** Each frame's content (length and CRC of its bytes), in the order of the captures and their records. */
    static List<String> frames(List<Path> captures) throws IOException, CaptureException {
        List<String> out = new ArrayList<>();
        for (Path f : captures) {
            try (CaptureReader r = Captures.open(f)) {
                while (r.next()) {
                    CRC32 crc = new CRC32();
                    crc.update(r.data(), r.dataOffset(), r.capturedLength());
                    out.add(r.capturedLength() + "/" + crc.getValue());
                }
                assertEquals(null, r.tailProblem(), f.toString());
            }
        }
        return out;
    }

    /** How many frames {@code a} has beyond {@code b} (multiset difference). */
    static long beyond(List<String> a, List<String> b) {
        Map<String, Integer> left = new HashMap<>();
        a.forEach(k -> left.merge(k, 1, Integer::sum));
        b.forEach(k -> left.merge(k, -1, Integer::sum));
        return left.values().stream().filter(n -> n > 0).mapToLong(Integer::longValue).sum();
    }

    /** The rotated files in the order tcpdump -C wrote them: cap, cap1, cap2, ... */
    static List<Path> rotated() throws IOException {
        try (var s = Files.list(lab.resolve("rot"))) {
            return s.sorted(java.util.Comparator.comparingInt((Path p) -> {
                String n = p.getFileName().toString().substring("cap".length());
                return n.isEmpty() ? 0 : Integer.parseInt(n);
            })).toList();
        }
    }

    @Test
    void rotatedFilesTogetherHoldTheFramesOfTheSingleCapture() throws Exception {
        long[] one = counts("one");
        long[] rot = counts("rot");
        List<Path> files = rotated();
        assertTrue(files.size() >= 11, "about 12 MB in 1 MB files, so cap10 sorts before cap2: " + files);
        for (Path f : files) {
            assertTrue(f.getFileName().toString().matches("cap\\d*"), f.toString());
        }
        List<String> single = frames(List.of(lab.resolve("one.pcap")));
        List<String> archive = frames(files);
        assertEquals(one[0], single.size(), "tcpdump's count of one.pcap");
        assertEquals(rot[0], archive.size(), "tcpdump's count of rot/");
        assertTrue(single.size() > 3000, "about 1000 requests/s for 3 s: " + single.size() + " frames");
        // what one capture's kernel socket dropped, the other may still hold
        assertTrue(beyond(single, archive) <= rot[1], beyond(single, archive) + " frames only in one.pcap, rot/ "
                + "dropped " + rot[1]);
        assertTrue(beyond(archive, single) <= one[1], beyond(archive, single) + " frames only in rot/, one.pcap "
                + "dropped " + one[1]);
        if (one[1] == 0 && rot[1] == 0) {
            // both sockets got every frame, in the same order; not the same timestamps (each socket stamps its own
            // copy: microseconds apart, milliseconds on a loaded machine)
            assertEquals(single, archive, "the rotated files in tcpdump's order hold one.pcap's frames in order");
        }
    }

    /**
     * Whether {@code column} of {@code table} compares between the analysis of one file and of a rotated archive
     * captured beside it: not the columns that say where a frame is (which source, which file, which frame of it;
     * a source is named after the files' directory, which differs between the two; nor the uid, which is derived
     * from the source and the first frame's time), nor times
     * (timestamps, durations, latency histograms), because each capture stamped its copies of the frames itself;
     * nor {@code crosses_file_gap}, which only a source of several files can have: a pause of the traffic at a
     * rotation, longer than every step before it, is a gap by the rule ({@link FileGap}), and on a loaded machine
     * the rotation itself can make one. It is checked against the gaps the rotated source reports instead.
     */
    static boolean comparable(TableSchema table, String column) {
        if (column.equals("file") || column.equals("source") || column.equals("uid") || column.endsWith("file_index")
                || column.equals("frame") || column.endsWith("_frame") || column.endsWith("_histogram")
                || column.equals(CROSSES_FILE_GAP.name())) {
            return false;
        }
        Column c = table.columns().get(table.ordinal(column));
        return c.type() != ColumnType.TIMESTAMP && !List.of("µs", "ns", "ms", "s").contains(c.unit());
    }

    @Test
    void analyzeOfTheRotatedDirectoryEqualsAnalyzeOfTheSingleCapture() throws IOException {
        assumeTrue(counts("one")[1] == 0 && counts("rot")[1] == 0, "a capture dropped frames: the tables differ");
        String oneOut = tmp.resolve("out-one").toString();
        String rotOut = tmp.resolve("out-rot").toString();
        SparkTests.analyzeCommand(lab.resolve("one.pcap").toString(), "--out", oneOut, "--master", "local[2]",
                "--partitions", "3");
        SparkTests.analyzeCommand(lab.resolve("rot").toString(), "--out", rotOut, "--master", "local[2]",
                "--partitions", "3");
        Configuration conf = new Configuration();
        List<String> compared = new ArrayList<>();
        for (TableSchema t : SchemaDoc.tables()) {
            if (t == PacketSchema.TABLE || t == CaptureFilesTable.TABLE || t.name().equals("sources")) {
                continue; // one row per file or per source: compared by their frame totals below
            }
            List<String> expected = SparkTests.tableText(oneOut, t.name(), conf, c -> comparable(t, c));
            assertEquals(expected, SparkTests.tableText(rotOut, t.name(), conf, c -> comparable(t, c)), t.name());
            compared.add(t.name() + " " + expected.size());
        }
        assertFalse(SparkTests.tableText(oneOut, "connections", conf, c -> true).isEmpty(), compared.toString());
        assertEquals(sum(oneOut, "frames"), sum(rotOut, "frames"), "frames over capture_files");
        assertEquals(sum(oneOut, "tcp_frames"), sum(rotOut, "tcp_frames"));

        // one file has no boundary to cross; the rotated files' connections cross exactly the gaps their source
        // reports, each from one file's last frame to the next file's first
        assertEquals(0, gaps(oneOut).length);
        assertEquals(List.of(), crossing(oneOut), "one file: no connection crosses a gap");
        long[][] rotGaps = gaps(rotOut);
        assertEquals(spanning(rotOut, rotGaps), crossing(rotOut), "crosses_file_gap against the source's gaps "
                + java.util.Arrays.deepToString(rotGaps));
    }

    @Test
    void aMissingRotatedFileIsAGapThatTheConnectionsAcrossItCross() throws IOException {
        List<Path> files = rotated();
        Path missing = files.get(files.size() / 2);
        Path dir = Files.createDirectories(tmp.resolve("rot-missing"));
        for (Path f : files) {
            if (!f.equals(missing)) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        String out = tmp.resolve("out-missing").toString();
        SparkTests.analyzeCommand(dir.toString(), "--out", out, "--master", "local[2]", "--partitions", "3");
        long[][] found = gaps(out);
        assertTrue(found.length >= 1, "the file " + missing.getFileName() + " (about 0.25 s of traffic) is missing");
        List<Long> expected = spanning(out, found);
        // the lab's keep-alive connections last the whole capture
        assertFalse(expected.isEmpty(), "no connection spans the gaps " + java.util.Arrays.deepToString(found));
        assertEquals(expected, crossing(out), "crosses_file_gap against the gaps " + java.util.Arrays.deepToString(
                found));
    }

    /**
     * The gaps the one source of {@code out} reports, each as {start, end} in the tables' timestamp unit: the last
     * frame of the file before it and the first frame of the file after it (which must be {@code gap_us} later).
     */
    static long[][] gaps(String out) throws IOException {
        Map<Long, long[]> files = new HashMap<>();   // file_index -> {first_time, last_time}
        TableReader.scan(Path.of(out), CaptureFilesTable.TABLE, List.of(CaptureFilesTable.FILE_INDEX,
                CaptureFilesTable.FIRST_TIME, CaptureFilesTable.LAST_TIME), b -> {
            for (int i = 0; i < b.rows; i++) {
                files.put(b.longs(CaptureFilesTable.FILE_INDEX).values[i], new long[]{
                        b.longs(CaptureFilesTable.FIRST_TIME).values[i], b.longs(CaptureFilesTable.LAST_TIME).values[i]});
            }
        });
        List<long[]> gaps = new ArrayList<>();
        TableReader.scan(Path.of(out), SourcesTable.TABLE, List.of(GAP_AFTER_FILES, SourcesTable.GAP_US), b -> {
            assertEquals(1, b.rows, "one source");
            long[] after = b.longLists(GAP_AFTER_FILES)[0];
            long[] us = b.longLists(SourcesTable.GAP_US)[0];
            assertEquals(after.length, us.length);
            for (int k = 0; k < after.length; k++) {
                long start = files.get(after[k])[1];
                long end = files.get(after[k] + 1)[0];
                assertEquals(us[k], end - start, "gap after file " + after[k] + " (timestamps in µs)");
                gaps.add(new long[]{start, end});
            }
        });
        return gaps.toArray(new long[0][]);
    }

    /** Streams of {@code out}'s connections that say they cross a gap, ascending. */
    static List<Long> crossing(String out) throws IOException {
        List<Long> streams = new ArrayList<>();
        TableReader.scan(Path.of(out), EngineTables.CONNECTIONS, List.of(Connections.STREAM, CROSSES_FILE_GAP), b -> {
            TableReader.LongColumn stream = b.longs(Connections.STREAM), crosses = b.longs(CROSSES_FILE_GAP);
            for (int i = 0; i < b.rows; i++) {
                if (crosses.values[i] != 0) {
                    streams.add(stream.values[i]);
                }
            }
        });
        streams.sort(null);
        return streams;
    }

    /**
     * Streams of {@code out}'s connections with frames on both sides of one of {@code gaps} ({@link #gaps}), by their
     * first and last frame's times, ascending: those that should say they cross a gap.
     */
    static List<Long> spanning(String out, long[][] gaps) throws IOException {
        List<Long> streams = new ArrayList<>();
        TableReader.scan(Path.of(out), EngineTables.CONNECTIONS, List.of(Connections.STREAM, Connections.FIRST_TIME,
                Connections.LAST_TIME), b -> {
            TableReader.LongColumn stream = b.longs(Connections.STREAM), first = b.longs(Connections.FIRST_TIME),
                    last = b.longs(Connections.LAST_TIME);
            for (int i = 0; i < b.rows; i++) {
                for (long[] g : gaps) {
                    if (first.values[i] <= g[0] && last.values[i] >= g[1]) {
                        streams.add(stream.values[i]);
                        break;
                    }
                }
            }
        });
        streams.sort(null);
        return streams;
    }

    private static long sum(String out, String column) throws IOException {
        long s = 0;
        for (String row : SparkTests.tableText(out, "capture_files", new Configuration(), column::equals)) {
            s += Long.parseLong(row.substring(1, row.length() - 1));
        }
        return s;
    }
}
