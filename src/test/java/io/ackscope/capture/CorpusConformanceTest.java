package io.ackscope.capture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Reads every capture of the shared corpus and compares each frame with tshark 4.0.17's expected/*.frames.tsv:
 * frame.number, frame.time_epoch, frame.interface_id, frame.len and frame.cap_len.
 */
class CorpusConformanceTest {

    /**
     * Timestamps where tshark's printing is an artefact of out-of-range sub-second fields (see the corpus README):
     * we compute seconds + fraction arithmetically; the value here is ours, tshark's is quoted in the reason.
     */
    private static final Map<String, String> TIME_DIVERGENCES = Map.of(
            "tcpdump__timestamp_invalid_micro.pcap#2", "1418145371.000000000",  // usec=1000000; tshark 1418145370.1000000000
            "tcpdump__timestamp_invalid_micro.pcap#3", "1418147517.483648000",  // usec=2^31; tshark 1418145370.000000000
            "tcpdump__timestamp_invalid_nano.pcap#2", "1418145371.000000000",   // nsec=1e9; tshark 1418145370.1000000000
            "tcpdump__timestamp_invalid_nano.pcap#3", "1418145372.147483648",   // nsec=2^31; tshark -1418145370.2147483648
            "ndpi__fuzz-2021-10-13.pcap#1", "980658803.882137472");             // nsec=1882137472; tshark 980658802.1882137472

    /**
     * pcpp__pcapng-example.pcapng has 100 EPBs whose 64-bit timestamps are near 2^64 microseconds (tshark prints
     * 18446744073204.x seconds, year 586,000). A signed 64-bit nanosecond count ends in 2262, so we saturate at
     * Long.MAX_VALUE there; every tshark value beyond that range must come out saturated.
     */
    private static final long NANOS_RANGE_END_SECONDS = Long.MAX_VALUE / 1_000_000_000L;
    private static final int EXPECTED_SATURATED = 100;

    /** How reading ends for the files tshark rejects or stops in (their expected/*.error.txt). */
    private record Ending(int records, long errorOffset, String errorText, long tailOffset, String tailText) {
    }

    private static final Map<String, Ending> ENDINGS = Map.of(
            // tshark: "network type reserved field not zero (0x00300000)"
            "libpcap__linktype-reserved-field-not-zero.pcap", new Ending(0, 20, "reserved bits 16-25 set", -1, null),
            // tshark: "major version 1 unsupported"
            "libpcap__pcap-invalid-version-1.pcap", new Ending(0, 4, "pcap version 1.4 unsupported", -1, null),
            // tshark: "unknown SHB version 0.1"
            "libpcap__pcapng-invalid-vers-1.pcapng", new Ending(0, 12, "pcapng version 0.1 unsupported", -1, null),
            // tshark: "Not enough data to handle option of length 12336"; the SHB's trailing length is "0000" too
            "libpcap__shb-option-too-long.pcapng",
                new Ending(0, 0, "trailing length 808464432 differs from its leading length 52", -1, null),
            // tshark: "cut short in the middle of a packet" after 1 frame (v2.0 file: lengths swapped, as libpcap)
            "ndpi__fuzz-2021-10-13.pcap", new Ending(1, -1, null, 237, "file ends 2 bytes into a 16-byte record header"),
            // tshark: "File has 4325376-byte packet, bigger than maximum of 262144" after 6 frames
            "suri__bug-1450-04__tls_DER-incomplete-header.pcap",
                new Ending(6, 5035, "record captured length 4325376 exceeds the bound of 262144", -1, null),
            // tshark: "cut short in the middle of a packet" after 2696 frames
            "suri__http-mime-truncated__input.pcap",
                new Ending(2696, -1, null, 2715459, "file ends 1 bytes into a 16-byte record header"));

    @Test
    void everyCorpusFrameMatchesTsharkExceptListedTimestampArtefacts() throws IOException {
        List<String> files = Corpus.captures();
        assertEquals(77, files.size(), "corpus manifest lists 77 captures");
        String[] fields = {"frame.number", "frame.time_epoch", "frame.interface_id", "frame.len", "frame.cap_len"};
        Map<String, int[]> agreement = new LinkedHashMap<>();   // field -> {equal, divergent-listed}
        for (String f : fields) {
            agreement.put(f, new int[2]);
        }
        List<String> mismatches = new ArrayList<>();
        int frames = 0;
        int nonPacketFrames = 0;
        int listedUsed = 0;
        int saturated = 0;
        for (String file : files) {
            Records.Outcome out = read(file);
            Map<Long, Records.Rec> byNumber = new HashMap<>();
            for (Records.Rec r : out.records) {
                byNumber.put(r.frame(), r);
            }
            List<String[]> rows = Corpus.frames(file);
            int packetRows = 0;
            for (String[] row : rows) {
                frames++;
                long number = Long.parseLong(row[0]);
                Records.Rec r = byNumber.get(number);
                if (row[3].isEmpty()) {
                    // tshark numbers a pcapng custom block as a frame with no encapsulation; we skip it.
                    nonPacketFrames++;
                    if (r != null) {
                        mismatches.add(file + "#" + number + ": tshark has a non-packet frame, we returned a packet");
                    }
                    continue;
                }
                packetRows++;
                if (r == null) {
                    mismatches.add(file + "#" + number + ": missing");
                    continue;
                }
                agreement.get("frame.number")[0]++;
                String key = file + "#" + number;
                String ourTime = Records.epoch9(r.timestampNanos());
                if (TIME_DIVERGENCES.containsKey(key)) {
                    listedUsed++;
                    agreement.get("frame.time_epoch")[1]++;
                    if (!TIME_DIVERGENCES.get(key).equals(ourTime)) {
                        mismatches.add(key + ": listed divergence, expected ours " + TIME_DIVERGENCES.get(key)
                                + " got " + ourTime);
                    }
                } else if (!row[1].isEmpty() && Long.parseLong(row[1].substring(0, row[1].indexOf('.')))
                        > NANOS_RANGE_END_SECONDS) {
                    saturated++;
                    agreement.get("frame.time_epoch")[1]++;
                    if (r.timestampNanos() != Long.MAX_VALUE) {
                        mismatches.add(key + ": tshark " + row[1] + " is beyond 2262, expected saturation, got "
                                + ourTime);
                    }
                } else {
                    count(agreement, "frame.time_epoch", row[1], ourTime, key, mismatches);
                }
                // tshark leaves frame.interface_id empty for classic pcap; our interface id is 0 there.
                String ourIface = out.info.format() == CaptureFormat.PCAP && r.interfaceId() == 0
                        ? "" : Integer.toString(r.interfaceId());
                count(agreement, "frame.interface_id", row[2], ourIface, key, mismatches);
                count(agreement, "frame.len", row[4], Long.toString(r.originalLength()), key, mismatches);
                count(agreement, "frame.cap_len", row[5], Integer.toString(r.capturedLength()), key, mismatches);
            }
            if (packetRows != out.records.size()) {
                mismatches.add(file + ": tshark has " + packetRows + " packet frames, we read "
                        + out.records.size());
            }
            assertEquals(out.info.nonPacketRecords(), rows.size() - packetRows,
                    file + ": skipped non-packet records vs tshark's encapsulation-less frames");
            if (!ENDINGS.containsKey(file)) {
                assertNull(out.error, file + ": unexpected error");
                assertNull(out.tail, file + ": unexpected tail problem");
            }
        }
        StringBuilder report = new StringBuilder("corpus conformance over " + files.size() + " files, " + frames
                + " tshark frames (" + nonPacketFrames + " non-packet):\n");
        for (Map.Entry<String, int[]> e : agreement.entrySet()) {
            report.append(String.format("  %-20s equal %6d   listed divergences %d%n", e.getKey(),
                    e.getValue()[0], e.getValue()[1]));
        }
        System.out.print(report);
        assertEquals(TIME_DIVERGENCES.size(), listedUsed, "every listed divergence was met");
        assertEquals(EXPECTED_SATURATED, saturated, "timestamps beyond the nanosecond range");
        if (!mismatches.isEmpty()) {
            fail(mismatches.size() + " mismatches:\n" + String.join("\n", mismatches.subList(0,
                    Math.min(40, mismatches.size()))));
        }
    }

    @Test
    void filesTsharkRejectsOrStopsInEndWithTheExpectedErrorOrTail() throws IOException {
        for (Map.Entry<String, Ending> e : ENDINGS.entrySet()) {
            String file = e.getKey();
            Ending want = e.getValue();
            assertTrue(Corpus.hasError(file), file + " has a tshark error file");
            Records.Outcome out = read(file);
            assertEquals(want.records(), out.records.size(), file + ": records delivered before the end");
            assertEquals(Corpus.frames(file).size(), out.records.size(), file + ": same frames as tshark printed");
            if (want.errorOffset() >= 0) {
                assertNotNull(out.error, file + ": expected a CaptureException");
                assertEquals(want.errorOffset(), out.error.offset(), file + ": error offset");
                assertTrue(out.error.reason().contains(want.errorText()), file + ": " + out.error.reason());
                assertTrue(out.error.file().endsWith(file), out.error.file());
                assertNull(out.tail, file);
            } else {
                assertNull(out.error, file + ": unexpected " + out.error);
                assertNotNull(out.tail, file + ": expected a tail problem");
                assertEquals(want.tailOffset(), out.tail.offset(), file + ": tail offset");
                assertTrue(out.tail.reason().contains(want.tailText()), file + ": " + out.tail.reason());
                assertEquals(Corpus.bytes(file).length, out.endPosition, file + ": read to the end of the file");
            }
        }
    }

    private static void count(Map<String, int[]> agreement, String field, String want, String got, String key,
                              List<String> mismatches) {
        if (want.equals(got)) {
            agreement.get(field)[0]++;
        } else {
            mismatches.add(key + " " + field + ": tshark " + want + " ours " + got);
        }
    }

    /** Reads a corpus file; an exception while opening counts as an error with no records. */
    static Records.Outcome read(String file) throws IOException {
        try {
            return Records.readAll(Captures.open(Corpus.capture(file)));
        } catch (CaptureException e) {
            Records.Outcome out = new Records.Outcome();
            out.error = e;
            out.info = new CaptureInfo(CaptureFormat.PCAP, Compression.NONE, List.of(), 0, List.of(), 0, null, 0,
                    List.of(), Map.of(), 0);
            return out;
        }
    }
}
