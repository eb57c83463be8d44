package io.ackscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ackscope.fields.FrameFields;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@code http.*} fields and the {@code http} protocol against tshark 4.0.17's {@code expected/*.http.tsv} (made
 * as the corpus README says), cell by cell over every frame of every corpus capture, and {@code -Y http} against
 * the frames whose {@code http} cell tshark filled. Every column of the reference files is a field {@code fields}
 * offers; a cell may differ only where {@link #DIVERGENCES} lists it, and each listed divergence must still occur.
 * Then every row of {@code fields -Y http} over the 29 bundled samples and the HTTP lab capture against tshark's
 * ({@code testdata/sample-tshark}, {@code testdata/http}): no divergence is listed there.
 */
class FieldsHttpConformanceTest {

    /** Cells of one file that knowingly differ: frame {@code frame} (0: any), fields starting with {@code fields}. */
    private record Divergence(String file, long frame, String fields, String reason) {
        boolean matches(String f, long n, String name) {
            return file.equals(f) && (frame == 0 || frame == n) && name.startsWith(fields);
        }
    }

    private static final List<Divergence> DIVERGENCES = List.of(
            new Divergence("pcpp__frag_http_req.pcap", 0, "http", "tshark reassembles the IP fragments and shows "
                    + "the request on the fragment that completes the datagram; the decoder reads the TCP header of "
                    + "the first fragment only (see FieldsConformanceTest)"));

    @Test
    void httpFieldsEqualTsharksTextOnEveryCorpusFrame() throws IOException {
        Path dir = FieldsConformanceTest.corpus();
        List<String> files = FieldsConformanceTest.captures(dir);
        Map<String, long[]> agreement = new LinkedHashMap<>(); // field -> {equal, compared}
        List<String> mismatches = new ArrayList<>();
        int[] used = new int[DIVERGENCES.size()];
        long httpFrames = 0;
        for (String file : files) {
            List<String[]> theirs = FieldsConformanceTest.split(Files.readString(
                    dir.resolve("expected").resolve(file + ".http.tsv"), StandardCharsets.UTF_8));
            if (theirs.isEmpty()) {
                continue;
            }
            String[] header = theirs.get(0);
            for (String field : header) {
                assertTrue(FrameFields.get(field) != null, field + " is not offered");
            }
            List<String[]> ours = run(dir.resolve(file), List.of(header), null);
            assertEquals(theirs.size(), ours.size(), file + ": rows");
            List<String> shown = new ArrayList<>();
            for (int row = 1; row < theirs.size(); row++) {
                String[] want = theirs.get(row);
                if (!want[1].isEmpty()) {
                    shown.add(want[0]);
                    httpFrames++;
                }
                for (int col = 1; col < header.length; col++) {
                    long[] a = agreement.computeIfAbsent(header[col], k -> new long[2]);
                    a[1]++;
                    String got = ours.get(row)[col];
                    if (want[col].equals(got)) {
                        a[0]++;
                    } else {
                        int d = listed(file, Long.parseLong(want[0]), header[col]);
                        if (d >= 0) {
                            used[d]++;
                        } else {
                            mismatches.add(file + " #" + want[0] + " " + header[col] + ": tshark '" + want[col]
                                    + "' ours '" + got + "'");
                        }
                    }
                }
            }
            // -Y http prints exactly the frames tshark shows HTTP in, but for listed divergences
            List<String> filtered = new ArrayList<>();
            List<String[]> rows = run(dir.resolve(file), List.of("frame.number"), "http");
            for (String[] r : rows.subList(1, rows.size())) {
                filtered.add(r[0]);
            }
            filtered.removeIf(n -> listed(file, Long.parseLong(n), "http") >= 0);
            shown.removeIf(n -> listed(file, Long.parseLong(n), "http") >= 0);
            if (!filtered.equals(shown)) {
                mismatches.add(file + ": -Y http gives frames " + filtered + ", tshark " + shown);
            }
        }
        StringBuilder table = new StringBuilder("fields vs tshark 4.0.17, http fields, " + files.size()
                + " captures, " + httpFrames + " frames with HTTP\n");
        long cells = 0;
        for (Map.Entry<String, long[]> e : agreement.entrySet()) {
            table.append(String.format("  %-24s %8d / %8d%n", e.getKey(), e.getValue()[0], e.getValue()[1]));
            cells += e.getValue()[1];
        }
        table.append("  cells compared: ").append(cells).append(", listed divergences: ")
                .append(Arrays.stream(used).sum()).append(", other differences: ").append(mismatches.size());
        System.out.println(table);
        assertEquals(17, agreement.size(), "fields compared: " + agreement.keySet());
        assertTrue(httpFrames > 250, "frames with HTTP: " + httpFrames);
        for (int i = 0; i < DIVERGENCES.size(); i++) {
            assertTrue(used[i] > 0, "listed divergence no longer occurs: " + DIVERGENCES.get(i));
        }
        if (!mismatches.isEmpty()) {
            fail(mismatches.size() + " differences:\n" + String.join("\n",
                    mismatches.subList(0, Math.min(300, mismatches.size()))));
        }
    }

    @Test
    void httpFramesOfTheBundledSamplesAndTheHttpLabEqualTsharks() throws IOException {
        List<String> mismatches = new ArrayList<>();
        long[] rows = new long[1];
        long[] cells = new long[1];
        int samples = compare(Path.of("testdata", "sample-tshark"), Path.of("sample-pcaps"), rows, cells,
                mismatches);
        long sampleRows = rows[0];
        int labs = compare(Path.of("testdata", "http"), Path.of("testdata", "http"), rows, cells, mismatches);
        System.out.println("fields vs tshark 4.0.17, http fields, " + samples + " samples and " + labs + " lab "
                + "capture, " + rows[0] + " frames with HTTP, " + cells[0] + " cells, files differing: "
                + mismatches.size());
        assertTrue(samples >= 29 && sampleRows > 100_000, samples + " samples, " + sampleRows + " HTTP frames");
        assertTrue(labs >= 1 && rows[0] - sampleRows > 40, labs + " labs, " + (rows[0] - sampleRows) + " frames");
        if (!mismatches.isEmpty()) {
            fail(String.join("\n", mismatches));
        }
    }

    /**
     * Compares each {@code refs/NAME.http.tsv.gz} with {@code fields -Y http} over {@code captures/NAME.pcap.gz};
     * adds the reference rows to {@code rows[0]} and the first difference of each file to {@code mismatches}.
     */
    private static int compare(Path refs, Path captures, long[] rows, long[] cells, List<String> mismatches)
            throws IOException {
        List<Path> files;
        try (var list = Files.list(refs)) {
            files = list.filter(p -> p.toString().endsWith(".http.tsv.gz")).sorted().toList();
        }
        for (Path ref : files) {
            String name = ref.getFileName().toString().replace(".http.tsv.gz", "");
            String theirs;
            try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(ref))) {
                theirs = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            List<String[]> want = FieldsConformanceTest.split(theirs);
            List<String[]> got = run(captures.resolve(name + ".pcap.gz"), List.of(want.get(0)), "http");
            cells[0] += (want.size() - 1L) * (want.get(0).length - 1);
            rows[0] += want.size() - 1;
            for (int i = 0; i < Math.max(want.size(), got.size()); i++) {
                String w = i < want.size() ? String.join("\t", want.get(i)) : "(none)";
                String g = i < got.size() ? String.join("\t", got.get(i)) : "(none)";
                if (!w.equals(g)) {
                    mismatches.add(name + " row " + i + ": tshark '" + w + "' ours '" + g + "'");
                    break; // the first difference of a file says enough
                }
            }
        }
        return files.size();
    }

    private static int listed(String file, long frame, String field) {
        for (int i = 0; i < DIVERGENCES.size(); i++) {
            Divergence d = DIVERGENCES.get(i);
            if (d.matches(file, frame, field)) {
                return i;
            }
        }
        return -1;
    }

    /** Runs {@code fields} in-process. */
    private static List<String[]> run(Path capture, List<String> names, String filter) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FieldsCommand cmd = new FieldsCommand(new PrintStream(bytes, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        cmd.file = capture.toString();
        cmd.fields = names;
        cmd.displayFilter = filter;
        try {
            cmd.run();
        } catch (IOException | CommandFailure e) {
            throw new AssertionError(capture + ": " + e, e);
        }
        return FieldsConformanceTest.split(bytes.toString(StandardCharsets.UTF_8));
    }
}
