package io.ackscope.capture;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static io.ackscope.capture.Pcapng.block;
import static io.ackscope.capture.Pcapng.epb;
import static io.ackscope.capture.Pcapng.idb;
import static io.ackscope.capture.Pcapng.option;
import static io.ackscope.capture.Pcapng.shb;
import static io.ackscope.capture.Pcapng.spb;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PcapngReaderTest {
    private static final boolean LE = false;
    private static final boolean BE = true;

    private static byte[] bytesOf(CaptureReader r) {
        return Arrays.copyOfRange(r.data(), r.dataOffset(), r.dataOffset() + r.capturedLength());
    }

    private static byte[] tsresol(boolean be, int v) {
        return option(be, 9, new byte[] {(byte) v});
    }

    private static CaptureException damage(byte[] file) throws Exception {
        CaptureReader r;
        try {
            r = Bytes.open(file);
        } catch (CaptureException e) {
            return e;
        }
        try (r) {
            while (r.next()) {
                // read on
            }
        } catch (CaptureException e) {
            return e;
        }
        throw new AssertionError("no CaptureException; tail " + r.tailProblem());
    }

    @Test
    void readsEnhancedPacketBlocksWithEachInterfacesResolutionAndOffset() throws Exception {
        byte[] p = Bytes.payload(42, 1);
        byte[] tsoffset = Pcapng.body(LE).u64(1000).build();
        byte[] file = Bytes.concat(
                shb(LE),
                idb(LE, 1, 65535),                                        // 0: default 10^-6
                idb(LE, 113, 0, Bytes.concat(tsresol(LE, 9), option(LE, 2, "eth1".getBytes(StandardCharsets.UTF_8)))),
                idb(LE, 101, 0, Bytes.concat(tsresol(LE, 0x80 | 10),   // 2: 2^-10 s, plus 1000 s
                        option(LE, 14, tsoffset))),
                epb(LE, 0, 1_700_000_000_123_456L, p),
                epb(LE, 1, 1_700_000_000_123_456_789L, p),
                epb(LE, 2, (1_700_000_000L << 10) | 512, p));
        try (CaptureReader r = Bytes.open(file)) {
            assertEquals(CaptureFormat.PCAPNG, r.format());
            assertTrue(r.next());
            assertEquals(1_700_000_000_123_456_000L, r.timestampNanos());
            assertEquals(0, r.interfaceId());
            assertEquals(1, r.linkType());
            assertArrayEquals(p, bytesOf(r));
            assertTrue(r.next());
            assertEquals(1_700_000_000_123_456_789L, r.timestampNanos());
            assertEquals(1, r.interfaceId());
            assertEquals(113, r.linkType());
            assertTrue(r.next());
            assertEquals(1_700_001_000_500_000_000L, r.timestampNanos(), "2^-10 units, +1000 s offset");
            assertEquals(101, r.linkType());
            assertFalse(r.next());
            assertNull(r.tailProblem());
            CaptureInfo info = r.info();
            assertEquals(3, info.interfaces().size());
            assertEquals("eth1", info.interfaces().get(1).name());
            assertEquals("2^-10", info.interfaces().get(2).resolution().toString());
            assertEquals(1000, info.interfaces().get(2).timestampOffsetSeconds());
            assertEquals(List.of(1, 113, 101), info.linkTypes());
        }
    }

    @Test
    void sectionsKeepTheirOwnByteOrderAndInterfaceNumbering() throws Exception {
        byte[] file = Bytes.concat(
                shb(BE), idb(BE, 1, 0), idb(BE, 0, 0),
                epb(BE, 1, 5_000_000, Bytes.payload(10, 1)),
                shb(LE), idb(LE, 113, 0),
                epb(LE, 0, 6_000_000, Bytes.payload(11, 2)),
                shb(BE), idb(BE, 228, 0), idb(BE, 229, 0),
                epb(BE, 1, 7_000_000, Bytes.payload(12, 3)));
        try (CaptureReader r = Bytes.open(file)) {
            int[][] want = {{0, 1, 0, 5}, {1, 0, 113, 6}, {2, 1, 229, 7}};
            for (int[] w : want) {
                assertTrue(r.next());
                assertEquals(w[0], r.sectionNumber());
                assertEquals(w[1], r.interfaceId(), "interface ids restart in each section, as tshark numbers them");
                assertEquals(w[2], r.linkType());
                assertEquals(w[3] * 1_000_000_000L, r.timestampNanos());
            }
            assertFalse(r.next());
            CaptureInfo info = r.info();
            assertEquals("mixed", info.byteOrder());
            assertEquals(3, info.sectionCount());
            assertEquals(5, info.interfaceCount());
            assertEquals(229, info.interfaceOf(2, 1).linkType());
        }
    }

    @Test
    void simplePacketBlockTakesInterfaceZeroAndTheSmallestLength() throws Exception {
        byte[] file = Bytes.concat(shb(LE), idb(LE, 1, 128),
                spb(LE, 314, Bytes.payload(200, 0)),   // snaplen 128 < room 200 < orig 314
                spb(LE, 60, Bytes.payload(60, 0)),     // all present
                spb(LE, 90, Bytes.payload(64, 0)));    // room 64 < orig 90 < snaplen
        try (CaptureReader r = Bytes.open(file)) {
            assertTrue(r.next());
            assertEquals(128, r.capturedLength());
            assertEquals(314, r.originalLength());
            assertFalse(r.hasTimestamp());
            assertEquals(CaptureReader.NO_TIMESTAMP, r.timestampNanos());
            assertEquals(0, r.interfaceId());
            assertTrue(r.next());
            assertEquals(60, r.capturedLength());
            assertTrue(r.next());
            assertEquals(64, r.capturedLength());
            assertEquals(90, r.originalLength());
        }
    }

    @Test
    void obsoletePacketBlockIsReadLikeAnEnhancedOne() throws Exception {
        byte[] p = Bytes.payload(30, 4);
        byte[] pb = block(BE, PcapngBlocks.PB, Pcapng.body(BE)
                .u16(0)                 // interface id (16 bits)
                .u16(0)                 // drops count
                .u32(0).u32(2_000_000)  // timestamp high, low
                .u32(30).u32(60)        // captured, original length
                .raw(p).build());
        try (CaptureReader r = Bytes.open(Bytes.concat(shb(BE), idb(BE, 101, 0), pb))) {
            assertTrue(r.next());
            assertEquals(2_000_000_000L, r.timestampNanos());
            assertEquals(60, r.originalLength());
            assertArrayEquals(p, bytesOf(r));
        }
    }

    @Test
    void nonPacketBlocksAreSkippedAndCustomBlocksTakeAFrameNumber() throws Exception {
        byte[] custom = Pcapng.body(LE).u32(32473).raw(Bytes.payload(8, 0)).build();   // PEN + data
        byte[] file = Bytes.concat(shb(LE),
                block(LE, PcapngBlocks.CB_COPY, custom),
                idb(LE, 1, 0),
                block(LE, PcapngBlocks.NRB, Pcapng.body(LE).u16(0).u16(0).build()),
                epb(LE, 0, 1, Bytes.payload(10, 0)),
                block(LE, PcapngBlocks.ISB, Pcapng.body(LE).u32(0).u32(0).u32(0).build()),
                block(LE, PcapngBlocks.CB_NOCOPY, custom),
                block(LE, PcapngBlocks.DSB, Pcapng.body(LE).u32(0x544c534b).u32(0).build()),
                block(LE, 0x0BADBEEF, new byte[20]),
                epb(LE, 0, 2, Bytes.payload(10, 0)));
        try (CaptureReader r = Bytes.open(file)) {
            assertTrue(r.next());
            assertEquals(2, r.frameNumber(), "the custom block before it is frame 1, as in tshark");
            assertTrue(r.next());
            assertEquals(4, r.frameNumber());
            assertFalse(r.next());
            CaptureInfo info = r.info();
            assertEquals(2, info.nonPacketRecords());
            assertEquals(2L, info.blockCounts().get("CB"));
            assertEquals(1L, info.blockCounts().get("NRB"));
            assertEquals(1L, info.blockCounts().get("ISB"));
            assertEquals(1L, info.blockCounts().get("DSB"));
            assertEquals(1L, info.blockCounts().get("unknown"));
            assertEquals(2L, info.blockCounts().get("EPB"));
        }
    }

    @Test
    void commentsAreCountedAndKeptBoundedAndPrintable() throws Exception {
        byte[] longComment = new byte[1000];
        Arrays.fill(longComment, (byte) 'x');
        longComment[0] = 0x1b;   // ESC must not reach a terminal
        byte[] file = Bytes.concat(
                shb(LE, option(LE, 1, "section note".getBytes(StandardCharsets.UTF_8))),
                idb(LE, 1, 0),
                epb(LE, 0, 1, Bytes.payload(5, 0), 5, option(LE, 1, longComment)));
        try (CaptureReader r = Bytes.open(file)) {
            assertTrue(r.next());
            CaptureInfo info = r.info();
            assertEquals(2, info.commentCount());
            assertEquals("section note", info.comments().get(0));
            String kept = info.comments().get(1);
            assertEquals(CaptureText.MAX_CHARS + 3, kept.length());
            assertTrue(kept.startsWith("?xxx") && kept.endsWith("..."), kept);
        }
    }

    @Test
    void blockLengthNotAMultipleOf4IsDamageAtTheBlock() throws Exception {
        byte[] good = Bytes.concat(shb(LE), idb(LE, 1, 0));
        byte[] bad = Pcapng.body(LE).u32(PcapngBlocks.EPB).u32(45).zeros(37).build();
        CaptureException e = damage(Bytes.concat(good, bad));
        assertEquals(good.length, e.offset());
        assertEquals("EPB block length 45 is not a multiple of 4", e.reason());
    }

    @Test
    void blockLengthBelowTheMinimumIsDamage() throws Exception {
        byte[] good = Bytes.concat(shb(LE), idb(LE, 1, 0));
        byte[] bad = Pcapng.body(LE).u32(PcapngBlocks.EPB).u32(28).zeros(16).u32(28).build();
        CaptureException e = damage(Bytes.concat(good, bad));
        assertEquals(good.length, e.offset());
        assertEquals("EPB block length 28 is below the minimum of 32", e.reason());
        byte[] tiny = Pcapng.body(LE).u32(0x77).u32(8).build();
        assertEquals("unknown block length 8 is below the minimum of 12",
                damage(Bytes.concat(good, tiny)).reason());
    }

    @Test
    void trailingLengthDifferentFromLeadingLengthIsDamage() throws Exception {
        byte[] good = Bytes.concat(shb(LE), idb(LE, 1, 0));
        byte[] e1 = epb(LE, 0, 1, Bytes.payload(8, 0));
        e1[e1.length - 4] ^= 4;   // trailer says 4 more than the header
        CaptureException e = damage(Bytes.concat(good, e1));
        assertEquals(good.length, e.offset());
        assertEquals("EPB block trailing length " + (e1.length + 4) + " differs from its leading length "
                + e1.length, e.reason());
    }

    @Test
    void blockLengthBeyondTheBoundIsDamageBeforeAnyAllocation() throws Exception {
        byte[] good = Bytes.concat(shb(LE), idb(LE, 1, 0));
        byte[] bad = Pcapng.body(LE).u32(PcapngBlocks.EPB).u32(0xffff_fff0L).zeros(64).build();
        CaptureException e = damage(Bytes.concat(good, bad));
        assertEquals(good.length, e.offset());
        assertEquals("EPB block length 4294967280 exceeds the bound of "
                + PcapngReader.maxBlockLength(CaptureReader.DEFAULT_MAX_RECORD_LENGTH), e.reason());
    }

    @Test
    void capturedLengthBeyondTheBlockIsDamage() throws Exception {
        byte[] good = Bytes.concat(shb(LE), idb(LE, 1, 0));
        byte[] e1 = epb(LE, 0, 1, Bytes.payload(8, 0));
        e1[20] = 9;   // captured length 9 in a block with room for 8
        CaptureException e = damage(Bytes.concat(good, e1));
        assertEquals(good.length, e.offset());
        assertEquals("EPB captured length 9 exceeds the block's room of 8", e.reason());
    }

    @Test
    void packetForAnUndeclaredInterfaceIsDamageAfterTheEarlierPackets() throws Exception {
        byte[] good = Bytes.concat(shb(LE), idb(LE, 1, 0), epb(LE, 0, 1, Bytes.payload(8, 0)));
        CaptureReader r = Bytes.open(Bytes.concat(good, epb(LE, 1, 2, Bytes.payload(8, 0))));
        assertTrue(r.next());
        CaptureException e = assertThrows(CaptureException.class, r::next);
        assertEquals(good.length, e.offset());
        assertEquals("EPB refers to interface 1 but section 0 has declared 1", e.reason());
    }

    @Test
    void simplePacketBlockBeforeAnyInterfaceIsDamage() throws Exception {
        byte[] head = shb(LE);
        CaptureException e = damage(Bytes.concat(head, spb(LE, 4, new byte[4])));
        assertEquals(head.length, e.offset());
        assertEquals("SPB but section 0 has declared no interface", e.reason());
    }

    @Test
    void badByteOrderMagicIsDamageAtTheMagic() throws Exception {
        byte[] s = shb(LE);
        s[8] = 0x11;
        CaptureException e = damage(s);
        assertEquals(8, e.offset());
        assertTrue(e.reason().startsWith("section header byte-order magic 0x11"), e.reason());
        byte[] later = shb(LE);
        later[9] = 0x22;
        byte[] head = Bytes.concat(shb(LE), idb(LE, 1, 0));
        assertEquals(head.length + 8, damage(Bytes.concat(head, later)).offset());
    }

    @Test
    void unsupportedSectionVersionIsDamageAtTheVersion() throws Exception {
        byte[] s = shb(BE);
        s[13] = 2;   // major 2 (big-endian u16 at 12)
        CaptureException e = damage(s);
        assertEquals(12, e.offset());
        assertEquals("pcapng version 2.0 unsupported (only 1.0 and 1.2)", e.reason());
        byte[] v12 = shb(BE);
        v12[15] = 2;   // 1.2 is accepted, as libpcap does
        try (CaptureReader r = Bytes.open(v12)) {
            assertFalse(r.next());
        }
    }

    @Test
    void optionOverrunningItsBlockIsDamageAtTheOption() throws Exception {
        byte[] opt = Pcapng.body(LE).u16(2).u16(100).raw("eth0".getBytes(StandardCharsets.UTF_8)).build();
        byte[] head = shb(LE);
        CaptureException e = damage(Bytes.concat(head, idb(LE, 1, 0, opt)));
        assertEquals(head.length + 16, e.offset());
        assertEquals("option 2 of length 100 overruns its block by 96 bytes", e.reason());
    }

    @Test
    void timestampResolutionFinerThanA64BitCountIsDamage() throws Exception {
        CaptureException e = damage(Bytes.concat(shb(LE), idb(LE, 1, 0, tsresol(LE, 20))));
        assertEquals("IDB if_tsresol 0x14 is finer than a 64-bit timestamp can count", e.reason());
    }

    @Test
    void everyTruncatedPrefixOfTheFirstSectionHeaderIsDamageAtOffsetZero() {
        byte[] s = shb(LE);
        for (int n = 4; n < s.length; n++) {
            byte[] prefix = Arrays.copyOf(s, n);
            CaptureException e = assertThrows(CaptureException.class, () -> Bytes.open(prefix), "prefix " + n);
            assertEquals(0, e.offset());
            assertTrue(e.reason().startsWith("file ends "), e.reason());
        }
    }

    @Test
    void everyTruncatedPrefixAfterTheSectionHeaderEndsWithATailAtTheCutBlock() throws Exception {
        byte[][] blocks = {shb(LE), idb(LE, 1, 0), epb(LE, 0, 1, Bytes.payload(9, 0)), shb(BE), idb(BE, 1, 0),
            epb(BE, 0, 2, Bytes.payload(3, 0))};
        byte[] file = Bytes.concat(blocks);
        long[] starts = new long[blocks.length + 1];
        for (int i = 0; i < blocks.length; i++) {
            starts[i + 1] = starts[i] + blocks[i].length;
        }
        for (int n = blocks[0].length; n <= file.length; n++) {
            Records.Outcome out = Records.readAll(Bytes.open(Arrays.copyOf(file, n)));
            assertNull(out.error, "prefix " + n);
            assertEquals(n, out.endPosition);
            int cut = 0;
            while (cut < blocks.length && starts[cut + 1] <= n) {
                cut++;
            }
            int packets = (n >= starts[3] ? 1 : 0) + (n >= starts[6] ? 1 : 0);
            assertEquals(packets, out.records.size(), "prefix " + n);
            if (starts[cut] == n) {
                assertNull(out.tail, "clean end at a block boundary, prefix " + n);
            } else {
                assertEquals(starts[cut], out.tail.offset(), "prefix " + n);
                long into = n - starts[cut];
                assertTrue(out.tail.reason().startsWith("file ends " + into + " bytes into a"), out.tail.reason());
            }
        }
    }

    @Test
    void tooManyInterfacesInOneSectionIsDamage() throws Exception {
        byte[] one = idb(LE, 1, 0);
        byte[] many = new byte[one.length * (PcapngReader.MAX_INTERFACES + 1)];
        for (int i = 0; i <= PcapngReader.MAX_INTERFACES; i++) {
            System.arraycopy(one, 0, many, i * one.length, one.length);
        }
        byte[] head = shb(LE);
        CaptureException e = damage(Bytes.concat(head, many));
        assertEquals(head.length + (long) one.length * PcapngReader.MAX_INTERFACES, e.offset());
        assertEquals("section 0 declares more than 65536 interfaces", e.reason());
    }

    @Test
    void recordsLargerThanTheReadBufferAreAssembledIntact() throws Exception {
        byte[] big = Bytes.payload(StreamInput.BUFFER_SIZE + 1001, 3);
        try (CaptureReader r = Bytes.open(Bytes.concat(shb(LE), idb(LE, 1, 0), epb(LE, 0, 1, Bytes.payload(7, 0)),
                epb(LE, 0, 2, big), epb(LE, 0, 3, Bytes.payload(7, 1))))) {
            assertTrue(r.next());
            assertTrue(r.next());
            assertArrayEquals(big, bytesOf(r));
            assertTrue(r.next());
            assertArrayEquals(Bytes.payload(7, 1), bytesOf(r));
            assertFalse(r.next());
        }
    }
}
