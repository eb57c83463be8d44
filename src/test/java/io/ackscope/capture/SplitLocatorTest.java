package io.ackscope.capture;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Boundary finding on captures whose payloads are crafted to look like record headers. */
class SplitLocatorTest {
    private static final long BASE_SECONDS = 1_700_000_000L;

    /** A capture plus the true record (block) boundaries. */
    private record Crafted(byte[] bytes, long[] boundaries) {
        /**
         * The locator's answer when it is not fooled: the true boundary, except that a chain needs
         * {@link SplitLocator#MIN_CHAIN_RECORDS} records, so the last few boundaries give way to the end of the file
         * (the split before reads on to it).
         */
        long expectedBoundaryAtOrAfter(long pos) {
            for (int i = 0; i < boundaries.length; i++) {
                if (boundaries[i] >= pos) {
                    return boundaries.length - i >= SplitLocator.MIN_CHAIN_RECORDS ? boundaries[i] : bytes.length;
                }
            }
            return bytes.length;
        }
    }

    /**
     * Classic pcap whose payloads each hold a chain of four fake 16-byte record headers (plausible timestamps and
     * lengths, each pointing at the next) and then a fake header whose length runs 2 bytes past the real record end,
     * plus scattered single fakes whose lengths reach into the next record's payload. None lands exactly on a real
     * boundary: that case (a merge) is {@link #aPayloadCraftedToMergeIntoTheRealChainIsCaughtNotDoubled}.
     */
    private static Crafted craftedPcap(int records) {
        SplittableRandom rnd = new SplittableRandom(7);
        Bytes f = Pcap.header(false, PcapFileHeader.MAGIC_MICROS, 2, 4, 2048, 1);
        long[] bounds = new long[records];
        for (int i = 0; i < records; i++) {
            bounds[i] = f.size();
            long usec = (i * 1000L) % 1_000_000;
            long sec = BASE_SECONDS + i / 1000;
            int len = 300 + rnd.nextInt(1200);
            Bytes payload = Bytes.le();
            payload.raw(Bytes.payload(14, i));                       // something like an Ethernet header
            for (int k = 0; k < 4; k++) {                            // fake chain: header + 24 bytes, 4 times
                payload.u32(sec).u32(usec + k).u32(24).u32(24).raw(Bytes.payload(24, k));
            }
            int used = payload.size();
            int toEnd = len - used - 16;                             // bytes after the last fake header
            payload.u32(sec).u32(usec + 5).u32(toEnd + 2).u32(toEnd + 2);   // runs 2 bytes past the real end
            while (payload.size() < len) {
                if (payload.size() + 16 <= len && rnd.nextInt(8) == 0) {
                    // lands 16 + 3..13 bytes past this record's end: inside the next record's first payload bytes
                    long incl = len - payload.size() - 16 + 16 + 3 + rnd.nextInt(11);
                    payload.u32(sec).u32(rnd.nextInt(1_000_000)).u32(incl).u32(incl + rnd.nextInt(100));
                } else {
                    payload.u8(rnd.nextInt(256));
                }
            }
            Pcap.record(f, sec, usec, payload.build());
        }
        return new Crafted(f.build(), bounds);
    }

    /** pcapng whose EPB payloads hold chains of fake EPBs with matching trailing lengths. */
    private static Crafted craftedPcapng(int blocks) {
        SplittableRandom rnd = new SplittableRandom(11);
        List<byte[]> parts = new ArrayList<>();
        parts.add(Pcapng.shb(false));
        parts.add(Pcapng.idb(false, 1, 0));
        long at = parts.get(0).length + parts.get(1).length;
        long[] bounds = new long[blocks];
        for (int i = 0; i < blocks; i++) {
            bounds[i] = at;
            long units = (BASE_SECONDS + i) * 1_000_000L;
            Bytes payload = Bytes.le();
            for (int k = 0; k < 3; k++) {
                payload.raw(Pcapng.epb(false, 0, units + k, Bytes.payload(8 + 4 * k, k)));
            }
            int len = 400 + 4 * rnd.nextInt(300);
            // a last fake whose length runs 4 bytes past the real block's end: 28 (real EPB header) + payload
            // + 4 (trailer) + 4
            int fakeLen = len - payload.size() + 4 + 4;
            payload.u32(PcapngBlocks.EPB).u32(fakeLen).u32(0);
            while (payload.size() < len) {
                payload.u8(rnd.nextInt(256));
            }
            byte[] block = Pcapng.epb(false, 0, units, payload.build());
            parts.add(block);
            at += block.length;
        }
        return new Crafted(Bytes.concat(parts.toArray(new byte[0][])), bounds);
    }

    @Test
    void fakeClassicPcapHeadersInPayloadsNeverBecomeBoundaries() throws Exception {
        Crafted c = craftedPcap(400);
        SplitLocator loc = SplitLocator.open(Splits.of(c.bytes()), "crafted");
        assertTrue(loc.splittable());
        // From one byte after each true boundary, the scan examines every position up to the next one: all fakes.
        for (long b : c.boundaries()) {
            assertEquals(c.expectedBoundaryAtOrAfter(b + 1), loc.boundaryAtOrAfter(b + 1), "after " + b);
            assertEquals(c.expectedBoundaryAtOrAfter(b), loc.boundaryAtOrAfter(b), "at " + b);
        }
        for (long p = 0; p < c.bytes().length; p += 97) {
            assertEquals(c.expectedBoundaryAtOrAfter(Math.max(p, 24)), loc.boundaryAtOrAfter(p), "position " + p);
        }
    }

    @Test
    void fakePcapngBlocksInPayloadsNeverBecomeBoundaries() throws Exception {
        Crafted c = craftedPcapng(300);
        SplitLocator loc = SplitLocator.open(Splits.of(c.bytes()), "crafted");
        assertTrue(loc.splittable());
        assertEquals(c.boundaries()[0], loc.dataStart());
        for (long b : c.boundaries()) {
            assertEquals(c.expectedBoundaryAtOrAfter(b + 1), loc.boundaryAtOrAfter(b + 1), "after " + b);
            assertEquals(c.expectedBoundaryAtOrAfter(b), loc.boundaryAtOrAfter(b), "at " + b);
        }
        for (long p = 0; p < c.bytes().length; p += 97) {
            assertEquals(c.expectedBoundaryAtOrAfter(p), loc.boundaryAtOrAfter(p), "position " + p);
        }
    }

    @Test
    void splitReadsOfCraftedCapturesEqualTheWholeRead() throws Exception {
        for (Crafted c : List.of(craftedPcap(400), craftedPcapng(300))) {
            Records.Outcome whole = Records.readStream(new ByteArrayInputStream(c.bytes()), "crafted");
            assertEquals(c.boundaries().length, whole.records.size());
            for (long size : new long[] {333, 1024, 5000, 40_000}) {
                Splits.Result split = Splits.read(c.bytes(), "crafted", size);
                assertNull(split.fallback, "size " + size + ": " + split.fallback);
                SplitExactnessTest.compare("crafted, split " + size, whole, split);
            }
        }
    }

    @Test
    void aPayloadCraftedToMergeIntoTheRealChainIsCaughtNotDoubled() throws Exception {
        // Record 2's payload ends with a fake header whose length ends exactly at record 2's end: from there on the
        // fake chain is the real one, so no local check can tell. The split before it must notice.
        Bytes f = Pcap.header();
        List<Long> starts = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            starts.add((long) f.size());
            Bytes payload = Bytes.le().raw(Bytes.payload(100, i));
            if (i == 2) {
                payload.u32(BASE_SECONDS).u32(2001).u32(60).u32(60).raw(Bytes.payload(60, 9));
            }
            Pcap.record(f, BASE_SECONDS, i * 1000L, payload.build());
        }
        byte[] file = f.build();
        long fake = starts.get(2) + 16 + 100;
        SplitLocator loc = SplitLocator.open(Splits.of(file), "merge");
        assertEquals(fake, loc.boundaryAtOrAfter(starts.get(2) + 20), "the locator is fooled here");
        CaptureReader first = loc.openSplit(0, starts.get(2) + 20);
        List<Long> offsets = new ArrayList<>();
        CaptureException e = assertThrows(CaptureException.class, () -> {
            while (first.next()) {
                offsets.add(first.recordOffset());
            }
        });
        assertEquals(List.of(starts.get(0), starts.get(1), starts.get(2)), offsets);
        assertTrue(SplitLocator.needsWholeFileRead(first));
        assertEquals(starts.get(3), e.offset());
        assertEquals("split reading cannot continue: the next split starts at byte " + fake
                + ", which is not a record boundary; read the file whole", e.reason());
        // ... and the split-reading helper falls back for every split size that puts a boundary in that window
        Splits.Result r = Splits.read(file, "merge", starts.get(2) + 20);
        assertTrue(r.fallback.startsWith("split reading cannot continue"), r.fallback);
    }

    @Test
    void fileWideFrameNumbersFollowFromSplitCountsIncludingCustomBlocks() throws Exception {
        byte[] custom = Pcapng.block(false, PcapngBlocks.CB_COPY, Pcapng.body(false).u32(32473).u32(7).build());
        List<byte[]> parts = new ArrayList<>(List.of(Pcapng.shb(false), Pcapng.idb(false, 1, 0), custom, custom));
        for (int i = 0; i < 120; i++) {
            parts.add(Pcapng.epb(false, 0, (BASE_SECONDS + i) * 1_000_000L, Bytes.payload(60 + i, i)));
            if (i % 17 == 0) {
                parts.add(custom);
            }
        }
        byte[] file = Bytes.concat(parts.toArray(new byte[0][]));
        Records.Outcome whole = Records.readStream(new ByteArrayInputStream(file), "cb");
        assertEquals(3, whole.records.get(0).frame(), "two custom blocks before the first packet");
        assertEquals(2, SplitLocator.open(Splits.of(file), "cb").framesBeforeDataStart());
        for (long size : new long[] {100, 999, 4000}) {
            Splits.Result split = Splits.read(file, "cb", size);
            assertNull(split.fallback);
            SplitExactnessTest.compare("custom blocks, split " + size, whole, split);
        }
    }

    @Test
    void compressedAndPacketlessFilesAreNotSplittable() throws Exception {
        byte[] gz;
        var bos = new java.io.ByteArrayOutputStream();
        try (var out = new java.util.zip.GZIPOutputStream(bos)) {
            out.write(Corpus.bytes("zeek__socks.pcap"));
        }
        gz = bos.toByteArray();
        SplitLocator z = SplitLocator.open(Splits.of(gz), "x.gz");
        assertFalse(z.splittable());
        assertEquals("gzip-compressed files are read whole", z.whyNotSplittable());
        assertThrows(IllegalStateException.class, () -> z.openSplit(0, 100));
        SplitLocator empty = SplitLocator.open(Splits.of(Bytes.concat(Pcapng.shb(false), Pcapng.idb(false, 1, 0))),
                "empty");
        assertFalse(empty.splittable());
    }

    @Test
    void damagedHeaderFailsPlanningLikeAWholeRead() {
        CaptureException e = assertThrows(CaptureException.class,
                () -> SplitLocator.open(Splits.of(Corpus.bytes("libpcap__pcap-invalid-version-1.pcap")), "v1"));
        assertEquals(4, e.offset());
    }

    @Test
    void localFilesAreReadThroughPositionedReads(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        byte[] bytes = Corpus.bytes("zeek__bro.org.pcap");
        java.nio.file.Path file = tmp.resolve("c.pcap");
        java.nio.file.Files.write(file, bytes);
        Records.Outcome whole = Records.readStream(new ByteArrayInputStream(bytes), "c");
        List<Records.Rec> union = new ArrayList<>();
        try (SeekableInput in = SeekableInput.open(file)) {
            for (long s = 0; s < bytes.length; s += 100_000) {
                SplitLocator loc = SplitLocator.open(in, file.toString());
                try (CaptureReader r = loc.openSplit(s, Math.min(bytes.length, s + 100_000))) {
                    while (r.next()) {
                        union.add(Records.current(r));
                    }
                }
            }
        }
        assertEquals(whole.records.size(), union.size());
        for (int i = 0; i < union.size(); i++) {
            assertTrue(whole.records.get(i).sameAs(union.get(i)), "record " + i);
        }
    }
}
