package io.ackscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ackscope.fields.FrameFields;
import io.ackscope.tcp.TsharkAgreementTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fields of latency work ({@code frame.time*}, relative {@code tcp.seq}/{@code tcp.ack}, {@code tcp.nxtseq},
 * lengths, flag bits, scaled window, {@code tcp.time_*}, every {@code tcp.analysis.*} the engine computes) against
 * tshark 4.0.17's {@code expected/*.latency.tsv} (made with {@code TZ=UTC}, see the corpus README), cell by cell,
 * over every corpus capture. Every column of those files is either a field {@code fields} prints, compared, or one
 * listed in {@link #NOT_OFFERED} with the reason it is left out.
 */
class FieldsLatencyConformanceTest {

    /** Columns of the reference files that {@code fields} does not offer, and why. */
    static final Map<String, String> NOT_OFFERED = Map.of(
            "tcp.analysis.duplicate_ack_frame", "the engine does not keep the frame of a direction's last "
                    + "non-duplicate ACK (Wireshark's lastnondupack)",
            "tcp.analysis.push_bytes_sent", "the engine does not count the bytes sent since the last PSH",
            "tcp.analysis.ack_lost_segment", "the engine's ACKed-unseen-segment test differs from tshark's on 7 "
                    + "corpus frames (zeek__bro.org.pcap, zeek__206_example_b.pcap)",
            "tcp.analysis.reused_ports", "tshark 4.0 reports port reuse as an expert item only: -T fields leaves "
                    + "the field empty on every corpus frame, where the engine flags each SYN that reuses a 4-tuple");

    /** Columns of one file that knowingly differ: every field starting with {@code fields}, and why. */
    private record Divergence(String file, String fields, String reason) {
    }

    private static final String TIME_ARTEFACT = "out-of-range sub-second fields or timestamps beyond 2262 (see "
            + "FieldsConformanceTest): the frame's own time differs, and so do the times measured from it";
    private static final String NON_PACKET = "tshark counts a pcapng custom block as a frame with time 0, which "
            + "becomes the reference of frame.time_relative and the previous frame of frame.time_delta";
    private static final String REASSEMBLY = "tshark shows the TCP header on the fragment that completes the "
            + "datagram, the decoder on the first fragment (see FieldsConformanceTest)";

    private static final List<Divergence> DIVERGENCES = List.of(
            new Divergence("tcpdump__timestamp_invalid_micro.pcap", "frame.time", TIME_ARTEFACT),
            new Divergence("tcpdump__timestamp_invalid_nano.pcap", "frame.time", TIME_ARTEFACT),
            new Divergence("ndpi__fuzz-2021-10-13.pcap", "frame.time", TIME_ARTEFACT),
            new Divergence("pcpp__pcapng-example.pcapng", "frame.time", TIME_ARTEFACT),
            new Divergence("gopacket__be_test202.pcapng", "frame.time_", NON_PACKET),
            new Divergence("gopacket__le_test102.pcapng", "frame.time_", NON_PACKET),
            new Divergence("pcpp__frag_http_req.pcap", "tcp.", REASSEMBLY),
            new Divergence("pcpp__frag_http_req.pcap", "http.", REASSEMBLY),
            new Divergence("zeek__fragmented-4.pcap", "tcp.", REASSEMBLY));

    /**
     * Files whose TCP analysis knowingly differs from tshark's ({@link TsharkAgreementTest#KNOWN}): their
     * analysis columns are not compared; their frame and header columns are.
     */
    private static boolean analysisColumn(String field) {
        return field.startsWith("tcp.analysis.") || field.equals("tcp.stream") || field.equals("tcp.seq")
                || field.equals("tcp.ack") || field.equals("tcp.nxtseq") || field.startsWith("tcp.window_size")
                || field.startsWith("tcp.time_");
    }

    @Test
    void latencyFieldsEqualTsharksTextOnEveryCorpusFrame() throws IOException {
        Path dir = FieldsConformanceTest.corpus();
        List<String> files = FieldsConformanceTest.captures(dir);
        Map<String, long[]> agreement = new LinkedHashMap<>(); // field -> {equal, compared}
        List<String> mismatches = new ArrayList<>();
        int[] used = new int[DIVERGENCES.size()];
        for (String file : files) {
            List<String[]> theirs = FieldsConformanceTest.split(Files.readString(dir.resolve("expected").resolve(file + ".latency.tsv"),
                    StandardCharsets.UTF_8));
            if (theirs.isEmpty()) {
                continue;
            }
            String[] header = theirs.get(0);
            List<String> offered = new ArrayList<>();
            for (String field : header) {
                if (FrameFields.get(field) != null) {
                    offered.add(field);
                } else {
                    assertTrue(NOT_OFFERED.containsKey(field), field + " is neither offered nor listed as left out");
                }
            }
            List<String[]> ours = run(dir.resolve(file), offered);
            assertEquals(theirs.size(), ours.size(), file + ": rows");
            boolean skipAnalysis = TsharkAgreementTest.KNOWN.containsKey(file);
            for (int col = 0; col < header.length; col++) {
                int ourCol = offered.indexOf(header[col]);
                if (ourCol < 0 || (skipAnalysis && analysisColumn(header[col]))) {
                    continue;
                }
                long[] a = agreement.computeIfAbsent(header[col], k -> new long[2]);
                for (int row = 1; row < theirs.size(); row++) {
                    String want = theirs.get(row)[col];
                    String got = ours.get(row)[ourCol];
                    a[1]++;
                    int d = listed(file, header[col]);
                    if (want.equals(got)) {
                        a[0]++;
                    } else if (d >= 0) {
                        used[d]++;
                    } else {
                        mismatches.add(file + " #" + theirs.get(row)[0] + " " + header[col] + ": tshark '" + want
                                + "' ours '" + got + "'");
                    }
                }
            }
        }
        StringBuilder table = new StringBuilder("fields vs tshark 4.0.17, latency fields, " + files.size()
                + " captures\n");
        long cells = 0;
        for (Map.Entry<String, long[]> e : agreement.entrySet()) {
            table.append(String.format("  %-40s %8d / %8d%n", e.getKey(), e.getValue()[0], e.getValue()[1]));
            cells += e.getValue()[1];
        }
        table.append("  cells compared: ").append(cells).append(", listed divergences: ")
                .append(Arrays.stream(used).sum()).append(", other differences: ").append(mismatches.size());
        System.out.println(table);
        assertTrue(agreement.size() >= 40, "fields compared: " + agreement.keySet());
        for (int i = 0; i < DIVERGENCES.size(); i++) {
            assertTrue(used[i] > 0, "listed divergence no longer occurs: " + DIVERGENCES.get(i));
        }
        if (!mismatches.isEmpty()) {
            fail(mismatches.size() + " differences:\n" + String.join("\n",
                    mismatches.subList(0, Math.min(300, mismatches.size()))));
        }
    }

    private static int listed(String file, String field) {
        for (int i = 0; i < DIVERGENCES.size(); i++) {
            if (DIVERGENCES.get(i).file().equals(file) && field.startsWith(DIVERGENCES.get(i).fields())) {
                return i;
            }
        }
        return -1;
    }

    /** Runs {@code fields} in-process with the zone the reference files were made in (UTC). */
    private static List<String[]> run(Path capture, List<String> names) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FieldsCommand cmd = new FieldsCommand(new PrintStream(bytes, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        cmd.file = capture.toString();
        cmd.fields = names;
        cmd.zone = ZoneId.of("UTC");
        try {
            cmd.run();
        } catch (IOException | CommandFailure e) {
            throw new AssertionError(capture + ": " + e, e);
        }
        return FieldsConformanceTest.split(bytes.toString(StandardCharsets.UTF_8));
    }
}
