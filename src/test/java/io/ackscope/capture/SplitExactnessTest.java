package io.ackscope.capture;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The union of split reads equals the whole-file read exactly, for every uncompressed corpus capture and split sizes
 * from a few hundred bytes up.
 */
class SplitExactnessTest {
    /**
     * Split sizes; the smallest ones only for files up to the given length (every split validates a chain of about
     * 256 KiB, so tiny splits of the megabyte files would only repeat the same work thousands of times).
     */
    private static final long[][] SIZES = {{317, 150_000}, {1000, 400_000}, {4096, Long.MAX_VALUE},
        {65_536, Long.MAX_VALUE}, {1 << 20, Long.MAX_VALUE}};

    /** Files that need a whole-file read, and the start of why; every other corpus file must split. */
    private static final Map<String, String> WHOLE_READS = Map.of(
            // a second interface description block comes after the first packets
            "gopacket__be_test008.pcapng", "split reading cannot continue: an interface description block follows",
            "gopacket__le_test102.pcapng", "split reading cannot continue: an interface description block follows",
            "pcpp__pcapng-example.pcapng", "split reading cannot continue: an interface description block follows",
            // three sections
            "gopacket__be_test202.pcapng", "split reading cannot continue: a new section starts here",
            // fuzzed: after the record whose length is damage (byte 5035) the bytes hold a chain of valid-looking
            // headers starting 2 bytes earlier; the split before it sees the mismatch
            "suri__bug-1450-04__tls_DER-incomplete-header.pcap",
                "split reading cannot continue: the next split starts at byte 5033, which is not a record boundary");

    @Test
    void unionOfSplitReadsEqualsTheWholeFileReadForEveryCorpusCapture() throws Exception {
        Map<String, String> fallbacks = new TreeMap<>();
        int compared = 0;
        long splits = 0;
        for (String file : Corpus.captures()) {
            long t0 = System.nanoTime();
            byte[] bytes = Corpus.bytes(file);
            Records.Outcome whole = Records.readStream(new ByteArrayInputStream(bytes), file);
            for (long[] sizeAndLimit : SIZES) {
                long size = sizeAndLimit[0];
                if (bytes.length > sizeAndLimit[1]) {
                    continue;
                }
                Splits.Result split;
                try {
                    split = Splits.read(bytes, file, size);
                } catch (CaptureException e) {
                    assertNotNull(whole.error, file + ": split planning failed but the whole read did not: " + e);
                    assertEquals(whole.error.offset(), e.offset(), file);
                    assertTrue(whole.records.isEmpty(), file);
                    continue;
                }
                if (split.fallback != null) {
                    fallbacks.put(file, split.fallback);
                    continue;
                }
                splits += split.splits;
                compare(file + " split " + size, whole, split);
                compared++;
            }
            if (System.getProperty("ackscope.split.timing") != null) {
                System.out.printf("  %-55s %8d bytes %6d ms%n", file, bytes.length, (System.nanoTime() - t0) / 1_000_000);
            }
        }
        System.out.println("split exactness: " + compared + " file/size pairs compared over " + splits
                + " splits; whole-file fallbacks: " + fallbacks);
        assertEquals(WHOLE_READS.keySet(), fallbacks.keySet(), "files needing a whole read: " + fallbacks);
        for (Map.Entry<String, String> e : WHOLE_READS.entrySet()) {
            assertTrue(fallbacks.get(e.getKey()).startsWith(e.getValue()), fallbacks.get(e.getKey()));
        }
    }

    static void compare(String what, Records.Outcome whole, Splits.Result split) {
        List<String> diffs = new ArrayList<>();
        if (whole.records.size() != split.records.size()) {
            diffs.add("record count whole " + whole.records.size() + " splits " + split.records.size());
        }
        for (int i = 0; i < Math.min(whole.records.size(), split.records.size()); i++) {
            Records.Rec w = whole.records.get(i);
            Records.Rec s = split.records.get(i);
            if (!w.sameAs(s)) {
                diffs.add("record " + i + ": whole " + w + " splits " + s);
            } else if (w.frame() != split.frames.get(i)) {
                diffs.add("record " + i + ": frame " + w.frame() + " but prefix sums give " + split.frames.get(i));
            }
            if (diffs.size() > 5) {
                break;
            }
        }
        if (whole.error == null) {
            if (split.damage != null) {
                diffs.add("split damage " + split.damage + " but the whole read ended cleanly");
            }
        } else if (split.damage == null || split.damage.offset() != whole.error.offset()) {
            diffs.add("whole read damage at " + whole.error.offset() + ", splits " + split.damage);
        }
        if (whole.error == null && !java.util.Objects.equals(whole.tail, split.tail)) {
            diffs.add("tail whole " + whole.tail + " splits " + split.tail);
        }
        if (!diffs.isEmpty()) {
            fail(what + ":\n" + String.join("\n", diffs));
        }
        assertNull(split.fallback);
    }
}
