package io.ackscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.beust.jcommander.JCommander;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import io.ackscope.capture.Corpus;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Runs {@code ackscope fields} over every capture of the shared corpus and compares it cell by cell with tshark
 * 4.0.17's {@code expected/*.tcp.tsv} (its decoded columns) and {@code expected/*.frames.tsv}. Every cell must be
 * equal except the divergences listed in {@link #DIVERGENCES}, each with its reason; every listed divergence must
 * still occur (so the list cannot go stale).
 */
class FieldsConformanceTest {

    /** The columns compared; the TCP analysis columns of tcp.tsv belong to the engine's tests. */
    private static final List<String> FIELDS = List.of("frame.number", "frame.time_epoch", "frame.interface_id",
            "frame.encap_type", "frame.len", "frame.cap_len", "ip.src", "ipv6.src", "tcp.srcport", "ip.dst",
            "ipv6.dst", "tcp.dstport", "tcp.flags", "tcp.seq_raw", "tcp.ack_raw", "tcp.len", "tcp.window_size_value");

    /**
     * A listed difference: in {@code file}, frame {@code frame} (0: any frame of the file), every field whose name
     * starts with {@code fields}; {@code ours}, when not null, is what we must print there instead.
     */
    private record Divergence(String file, long frame, String fields, String ours, String reason) {
        boolean matches(String f, long n, String name) {
            return file.equals(f) && (frame == 0 || frame == n) && name.startsWith(fields);
        }
    }

    private static final String REASSEMBLY = "tshark reassembles IP fragments (ip.defragment is on by default) and "
            + "shows the TCP header on the frame that completes the datagram, with the datagram's length; the "
            + "flyweight decoder keeps no state and shows the TCP header of the first fragment, with its own bytes";
    private static final String TIME_ARTEFACT = "out-of-range sub-second field: tshark prints seconds and the raw "
            + "fraction side by side (see the corpus README); we add the fraction arithmetically";
    private static final String NON_PACKET = "tshark counts a pcapng custom block as a frame with the block's data "
            + "length; the reader skips it and does not report its size, so only its frame number is printed";

    private static final List<Divergence> DIVERGENCES = List.of(
            new Divergence("pcpp__frag_http_req.pcap", 1, "tcp.", null, REASSEMBLY),
            new Divergence("pcpp__frag_http_req.pcap", 11, "tcp.", "", REASSEMBLY),
            new Divergence("zeek__fragmented-4.pcap", 2, "tcp.", null, REASSEMBLY),
            new Divergence("zeek__fragmented-4.pcap", 5, "tcp.", "", REASSEMBLY),
            // usec=1000000: tshark 1418145370.1000000000
            new Divergence("tcpdump__timestamp_invalid_micro.pcap", 2, "frame.time_epoch", "1418145371.000000000",
                    TIME_ARTEFACT),
            // usec=2^31: tshark 1418145370.000000000
            new Divergence("tcpdump__timestamp_invalid_micro.pcap", 3, "frame.time_epoch", "1418147517.483648000",
                    TIME_ARTEFACT),
            // nsec=1e9: tshark 1418145370.1000000000
            new Divergence("tcpdump__timestamp_invalid_nano.pcap", 2, "frame.time_epoch", "1418145371.000000000",
                    TIME_ARTEFACT),
            // nsec=2^31: tshark -1418145370.2147483648
            new Divergence("tcpdump__timestamp_invalid_nano.pcap", 3, "frame.time_epoch", "1418145372.147483648",
                    TIME_ARTEFACT),
            // nsec=1882137472: tshark 980658802.1882137472
            new Divergence("ndpi__fuzz-2021-10-13.pcap", 1, "frame.time_epoch", "980658803.882137472",
                    TIME_ARTEFACT),
            new Divergence("pcpp__pcapng-example.pcapng", 0, "frame.time_epoch", "9223372036.854775807",
                    "100 EPB timestamps near 2^64 microseconds (year 586,000): a signed 64-bit nanosecond count ends "
                    + "in 2262, so the reader saturates them at Long.MAX_VALUE"),
            new Divergence("gopacket__be_test202.pcapng", 0, "frame.", "", NON_PACKET),
            new Divergence("gopacket__le_test102.pcapng", 0, "frame.", "", NON_PACKET));

    @Test
    void everyCorpusCellMatchesTsharkExceptListedDivergences() throws IOException {
        Path dir = corpus();
        Map<String, int[]> agreement = new LinkedHashMap<>(); // field -> {equal, compared, listed divergences}
        for (String f : FIELDS) {
            agreement.put(f, new int[3]);
        }
        int[] used = new int[DIVERGENCES.size()];
        List<String> mismatches = new ArrayList<>();
        List<String> files = captures(dir);
        assertEquals(77, files.size(), "captures in MANIFEST.tsv");
        long frames = 0;
        for (String file : files) {
            List<String[]> ours = runFields(dir.resolve(file));
            for (String kind : new String[] {".tcp.tsv", ".frames.tsv"}) {
                List<String[]> theirs = tsv(dir.resolve("expected").resolve(file + kind));
                if (theirs.isEmpty()) {
                    assertEquals(1, ours.size(), file + kind + ": tshark printed nothing, we print the header");
                    continue;
                }
                String[] header = theirs.get(0);
                if (ours.size() != theirs.size()) {
                    mismatches.add(file + kind + ": tshark has " + (theirs.size() - 1) + " frames, we have "
                            + (ours.size() - 1));
                }
                if (kind.equals(".tcp.tsv")) {
                    frames += theirs.size() - 1;
                }
                for (int row = 1; row < Math.min(ours.size(), theirs.size()); row++) {
                    long number = Long.parseLong(theirs.get(row)[0]);
                    for (int col = 0; col < header.length; col++) {
                        String field = header[col];
                        int ourCol = FIELDS.indexOf(field);
                        if (ourCol < 0 || (kind.equals(".frames.tsv") && field.startsWith("frame.number"))) {
                            continue; // an analysis column, or frame.number already compared in tcp.tsv
                        }
                        if (kind.equals(".frames.tsv") && field.equals("frame.time_epoch")) {
                            continue; // the same cell as in tcp.tsv
                        }
                        int[] a = agreement.get(field);
                        a[1]++;
                        String want = theirs.get(row)[col];
                        String got = ours.get(row)[ourCol];
                        if (want.equals(got)) {
                            a[0]++;
                            continue;
                        }
                        int d = listed(file, number, field);
                        if (d >= 0 && (DIVERGENCES.get(d).ours() == null || DIVERGENCES.get(d).ours().equals(got))) {
                            used[d]++;
                            a[2]++;
                        } else {
                            mismatches.add(file + " #" + number + " " + field + ": tshark '" + want + "' ours '"
                                    + got + "'");
                        }
                    }
                }
            }
        }
        StringBuilder table = new StringBuilder("ackscope fields vs tshark 4.0.17 over " + files.size()
                + " captures, " + frames + " frames\n");
        table.append(String.format("  %-22s %9s %9s %8s %9s%n", "field", "equal", "compared", "rate", "listed"));
        for (Map.Entry<String, int[]> e : agreement.entrySet()) {
            int[] a = e.getValue();
            table.append(String.format("  %-22s %9d %9d %7.3f%% %9d%n", e.getKey(), a[0], a[1],
                    a[1] == 0 ? 100.0 : 100.0 * a[0] / a[1], a[2]));
        }
        System.out.print(table);
        for (int i = 0; i < DIVERGENCES.size(); i++) {
            assertTrue(used[i] > 0, "listed divergence no longer occurs: " + DIVERGENCES.get(i));
        }
        if (!mismatches.isEmpty()) {
            fail(mismatches.size() + " unlisted differences:\n" + String.join("\n",
                    mismatches.subList(0, Math.min(200, mismatches.size()))));
        }
    }

    private static int listed(String file, long frame, String field) {
        for (int i = 0; i < DIVERGENCES.size(); i++) {
            if (DIVERGENCES.get(i).matches(file, frame, field)) {
                return i;
            }
        }
        return -1;
    }

    /** Runs the command in-process; returns its rows (header first) split on tabs. */
    private static List<String[]> runFields(Path capture) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        FieldsCommand cmd = new FieldsCommand(new PrintStream(bytes, true, StandardCharsets.UTF_8),
                new PrintStream(errors, true, StandardCharsets.UTF_8));
        List<String> args = new ArrayList<>(List.of("-r", capture.toString()));
        for (String f : FIELDS) {
            args.add("-e");
            args.add(f);
        }
        JCommander.newBuilder().addObject(cmd).build().parse(args.toArray(new String[0]));
        try {
            cmd.run();
        } catch (IOException | CommandFailure e) {
            throw new AssertionError(capture + ": " + e, e);
        }
        return split(bytes.toString(StandardCharsets.UTF_8));
    }

    /** Rows of a tab-separated text, each split on tabs; empty lines dropped. */
    static List<String[]> split(String text) {
        List<String[]> rows = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isEmpty()) {
                rows.add(line.split("\t", -1));
            }
        }
        return rows;
    }

    private static List<String[]> tsv(Path p) throws IOException {
        return split(Files.readString(p, StandardCharsets.UTF_8));
    }

    /** The vendored corpus (verified against SHA256SUMS). */
    static Path corpus() {
        return Corpus.dir();
    }

    static List<String> captures(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("MANIFEST.tsv"))) {
            if (!line.startsWith("file\t") && !line.isBlank()) {
                out.add(line.substring(0, line.indexOf('\t')));
            }
        }
        return out;
    }
}
