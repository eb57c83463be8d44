package io.ackscope.capture;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PcapReaderTest {

    private static byte[] bytesOf(CaptureReader r) {
        return Arrays.copyOfRange(r.data(), r.dataOffset(), r.dataOffset() + r.capturedLength());
    }

    @Test
    void readsMicrosecondLittleEndianRecords() throws Exception {
        byte[] p1 = Bytes.payload(60, 1);
        byte[] p2 = Bytes.payload(54, 7);
        Bytes f = Pcap.header();
        Pcap.record(f, 1_700_000_000L, 123_456, p1.length, 1514, p1);
        Pcap.record(f, 1_700_000_001L, 999_999, p2);
        try (CaptureReader r = Bytes.open(f.build())) {
            assertEquals(CaptureFormat.PCAP, r.format());
            assertTrue(r.next());
            assertEquals(1, r.frameNumber());
            assertEquals(1_700_000_000_123_456_000L, r.timestampNanos());
            assertEquals(60, r.capturedLength());
            assertEquals(1514, r.originalLength());
            assertEquals(1, r.linkType());
            assertEquals(0, r.interfaceId());
            assertEquals(24, r.recordOffset());
            assertArrayEquals(p1, bytesOf(r));
            assertTrue(r.next());
            assertEquals(2, r.frameNumber());
            assertEquals(1_700_000_001_999_999_000L, r.timestampNanos());
            assertEquals(24 + 16 + 60, r.recordOffset());
            assertArrayEquals(p2, bytesOf(r));
            assertFalse(r.next());
            assertNull(r.tailProblem());
            assertFalse(r.next(), "stays ended");
            assertEquals(24 + 16 + 60 + 16 + 54, r.position());
        }
    }

    @Test
    void readsNanosecondBigEndianRecords() throws Exception {
        byte[] p = Bytes.payload(40, 3);
        Bytes f = Pcap.header(true, PcapFileHeader.MAGIC_NANOS, 2, 4, 262144, 101);
        Pcap.record(f, 1_600_000_000L, 987_654_321, p);
        try (CaptureReader r = Bytes.open(f.build())) {
            assertTrue(r.next());
            assertEquals(1_600_000_000_987_654_321L, r.timestampNanos());
            assertEquals(101, r.linkType());
            assertArrayEquals(p, bytesOf(r));
            CaptureInfo info = r.info();
            assertEquals("big-endian", info.byteOrder());
            assertEquals(TimestampResolution.NANOSECONDS, info.resolutions().get(0));
            assertEquals(262144, info.interfaces().get(0).snapLength());
        }
    }

    @Test
    void readsModifiedFormatWith24ByteRecordHeaders() throws Exception {
        byte[] p = Bytes.payload(20, 9);
        Bytes f = Pcap.header(false, PcapFileHeader.MAGIC_MODIFIED, 2, 4, 65535, 1);
        Pcap.record(f, 10, 20, p.length, p.length, new byte[0])
                .u32(3).u16(0x0800).u8(0).u8(0)    // ifindex, protocol, pkt_type, pad
                .raw(p);
        try (CaptureReader r = Bytes.open(f.build())) {
            assertTrue(r.next());
            assertEquals(10_000_020_000L, r.timestampNanos());
            assertArrayEquals(p, bytesOf(r));
            assertFalse(r.next());
            assertNull(r.tailProblem());
        }
    }

    @Test
    void subSecondFieldOutOfRangeIsComputedNotRejected() throws Exception {
        Bytes f = Pcap.header();
        Pcap.record(f, 100, 1_000_000, new byte[4]);        // usec = 1e6
        Pcap.record(f, 100, 0xffff_ffffL, new byte[4]);     // usec = 2^32-1
        try (CaptureReader r = Bytes.open(f.build())) {
            assertTrue(r.next());
            assertEquals(101_000_000_000L, r.timestampNanos());
            assertTrue(r.next());
            assertEquals(100_000_000_000L + 0xffff_ffffL * 1000, r.timestampNanos());
        }
    }

    @Test
    void capturedLengthAboveOriginalLengthIsKept() throws Exception {
        Bytes f = Pcap.header(false, PcapFileHeader.MAGIC_MICROS, 2, 4, 31, 1);
        Pcap.record(f, 1, 0, 34, 32, Bytes.payload(34, 0));   // tcpdump aoe-oobr-1: incl 34 > orig 32 > snaplen 31
        try (CaptureReader r = Bytes.open(f.build())) {
            assertTrue(r.next());
            assertEquals(34, r.capturedLength());
            assertEquals(32, r.originalLength());
        }
    }

    @Test
    void capturedLengthAboveSnapLengthButWithinSaneBoundIsKept() throws Exception {
        Bytes f = Pcap.header(false, PcapFileHeader.MAGIC_MICROS, 2, 4, 65535, 1);
        Pcap.record(f, 1, 0, Bytes.payload(65549, 0));
        try (CaptureReader r = Bytes.open(f.build())) {
            assertTrue(r.next());
            assertEquals(65549, r.capturedLength());
            assertArrayEquals(Bytes.payload(65549, 0), bytesOf(r));
        }
    }

    @Test
    void capturedLengthBeyondBoundIsDamageAtTheRecordOffset() throws Exception {
        Bytes f = Pcap.header(false, PcapFileHeader.MAGIC_MICROS, 2, 4, 65535, 1);
        Pcap.record(f, 1, 0, new byte[10]);
        Pcap.record(f, 2, 0, 262_145, 262_145, new byte[0]);   // one byte above max(snaplen, 262144)
        CaptureReader r = Bytes.open(f.build());
        assertTrue(r.next());
        CaptureException e = assertThrows(CaptureException.class, r::next);
        assertEquals(24 + 16 + 10, e.offset());
        assertEquals("fixture", e.file());
        assertEquals("record captured length 262145 exceeds the bound of 262144 (snap length 65535)", e.reason());
        assertSame(e, assertThrows(CaptureException.class, r::next), "stays failed");
    }

    @Test
    void hugeCapturedLengthIsRejectedBeforeAnyAllocation() throws Exception {
        Bytes f = Pcap.header(false, PcapFileHeader.MAGIC_MICROS, 2, 4, 0xffff_ffffL, 1);   // snaplen 2^32-1
        Pcap.record(f, 1, 0, 0xffff_fff0L, 0xffff_fff0L, new byte[0]);
        CaptureReader r = Bytes.open(f.build());
        CaptureException e = assertThrows(CaptureException.class, r::next);
        assertEquals(24, e.offset());
        assertTrue(e.reason().contains("exceeds the bound of " + CaptureReader.DEFAULT_MAX_RECORD_LENGTH), e.reason());
    }

    @Test
    void configuredMaximumBoundsRecordsBelowTheSnapLength() throws Exception {
        Bytes f = Pcap.header();
        Pcap.record(f, 1, 0, new byte[2000]);
        CaptureReader r = CaptureReader.open(new ByteArrayInputStream(f.build()), "fixture", 1500);
        CaptureException e = assertThrows(CaptureException.class, r::next);
        assertEquals("record captured length 2000 exceeds the bound of 1500 (snap length 65535)", e.reason());
    }

    @Test
    void versionBefore2Point3HasItsLengthFieldsSwappedBack() throws Exception {
        Bytes f = Pcap.header(false, PcapFileHeader.MAGIC_MICROS, 2, 2, 65535, 1);
        Pcap.record(f, 1, 0, 1514, 8, Bytes.payload(8, 0));     // old order: orig_len first, then incl_len
        try (CaptureReader r = Bytes.open(f.build())) {
            assertTrue(r.next());
            assertEquals(8, r.capturedLength());
            assertEquals(1514, r.originalLength());
        }
    }

    @Test
    void version2Point3SwapsOnlyWhenCapturedExceedsOriginal() throws Exception {
        Bytes f = Pcap.header(false, PcapFileHeader.MAGIC_MICROS, 2, 3, 65535, 1);
        Pcap.record(f, 1, 0, 8, 1514, Bytes.payload(8, 0));     // already in the new order
        Pcap.record(f, 2, 0, 1514, 8, Bytes.payload(8, 0));     // old order
        try (CaptureReader r = Bytes.open(f.build())) {
            assertTrue(r.next());
            assertEquals(8, r.capturedLength());
            assertEquals(1514, r.originalLength());
            assertTrue(r.next());
            assertEquals(8, r.capturedLength());
            assertEquals(1514, r.originalLength());
        }
    }

    @Test
    void rejectsMajorVersionOtherThan2() {
        byte[] f = Pcap.header(false, PcapFileHeader.MAGIC_MICROS, 1, 4, 65535, 1).build();
        CaptureException e = assertThrows(CaptureException.class, () -> Bytes.open(f));
        assertEquals(4, e.offset());
        assertEquals("pcap version 1.4 unsupported (only 2.x)", e.reason());
    }

    @Test
    void rejectsReservedLinkTypeBits() {
        byte[] f = Pcap.header(false, PcapFileHeader.MAGIC_MICROS, 2, 4, 65535, 0x0030_0001).build();
        CaptureException e = assertThrows(CaptureException.class, () -> Bytes.open(f));
        assertEquals(20, e.offset());
        assertTrue(e.reason().startsWith("link-type field 0x00300001 has reserved bits 16-25 set (0x00300000)"),
                e.reason());
    }

    @Test
    void fcsBitsAreSeparatedFromTheLinkType() throws Exception {
        // F bit (26) set, FCS length 2 (x 16 bits) in bits 28-31, link type 1
        byte[] f = Pcap.header(false, PcapFileHeader.MAGIC_MICROS, 2, 4, 65535, 0x2400_0001L).build();
        try (CaptureReader r = Bytes.open(f)) {
            assertEquals(4, r.info().interfaces().get(0).fcsLength());
            assertEquals(1, r.info().interfaces().get(0).linkType());
        }
        // FCS length bits without the F bit (tcpdump__tcp_header_heapoverflow.pcap): length unknown
        byte[] g = Pcap.header(false, PcapFileHeader.MAGIC_MICROS, 2, 4, 65535, 0x3000_0001L).build();
        try (CaptureReader r = Bytes.open(g)) {
            assertEquals(-1, r.info().interfaces().get(0).fcsLength());
        }
    }

    @Test
    void everyTruncatedPrefixOfTheFileHeaderIsDamageAtOffsetZero() {
        byte[] header = Pcap.header().build();
        for (int n = 4; n < header.length; n++) {
            byte[] prefix = Arrays.copyOf(header, n);
            CaptureException e = assertThrows(CaptureException.class, () -> Bytes.open(prefix), "prefix " + n);
            assertEquals(0, e.offset());
            assertEquals("file ends after " + n + " bytes, inside the 24-byte pcap file header", e.reason());
        }
        for (int n = 0; n < 4; n++) {
            byte[] prefix = Arrays.copyOf(header, n);
            CaptureException e = assertThrows(CaptureException.class, () -> Bytes.open(prefix), "prefix " + n);
            assertEquals(0, e.offset());
            assertTrue(n == 0 ? e.reason().equals("empty file") : e.reason().contains("too short for a capture"),
                    e.reason());
        }
    }

    @Test
    void everyTruncatedPrefixOfTheRecordsEndsWithTheRightTail() throws Exception {
        Bytes f = Pcap.header();
        Pcap.record(f, 1, 0, Bytes.payload(5, 0));
        Pcap.record(f, 2, 0, Bytes.payload(7, 0));
        byte[] file = f.build();
        int second = 24 + 16 + 5;
        for (int n = 24; n <= file.length; n++) {
            Records.Outcome out = Records.readAll(Bytes.open(Arrays.copyOf(file, n)));
            assertNull(out.error);
            assertEquals(n, out.endPosition, "reads every byte of prefix " + n);
            int whole = n >= file.length ? 2 : n >= second ? 1 : 0;
            assertEquals(whole, out.records.size(), "records in prefix " + n);
            if (n == 24 || n == second || n == file.length) {
                assertNull(out.tail, "clean end at a record boundary, prefix " + n);
                continue;
            }
            long start = n < second ? 24 : second;
            int into = (int) (n - start);
            int dataLength = n < second ? 5 : 7;
            String want = into < 16 ? "file ends " + into + " bytes into a 16-byte record header"
                    : "file ends " + (into - 16) + " bytes into the " + dataLength
                    + "-byte data of the record whose header starts here";
            assertEquals(new CaptureProblem(start, want), out.tail, "prefix " + n);
        }
    }

    @Test
    void recordsAreServedFromTheReadBufferWithoutAllocatingPerPacket() throws Exception {
        Bytes f = Pcap.header();
        for (int i = 0; i < 20_000; i++) {
            Pcap.record(f, i, 0, Bytes.payload(100 + i % 1400, i));
        }
        Map<byte[], Boolean> arrays = new IdentityHashMap<>();
        int n = 0;
        try (CaptureReader r = Bytes.open(f.build())) {
            while (r.next()) {
                arrays.put(r.data(), true);
                assertEquals((byte) n, r.data()[r.dataOffset()]);
                n++;
            }
        }
        assertEquals(20_000, n);
        assertEquals(1, arrays.size(), "one reused array for all records");
    }

    @Test
    void recordsLargerThanTheReadBufferAreAssembledIntact() throws Exception {
        Bytes f = Pcap.header(false, PcapFileHeader.MAGIC_MICROS, 2, 4, 1 << 20, 1);
        byte[] big = Bytes.payload(StreamInput.BUFFER_SIZE * 2 + 17, 5);
        Pcap.record(f, 1, 0, Bytes.payload(33, 1));
        Pcap.record(f, 2, 0, big);
        Pcap.record(f, 3, 0, Bytes.payload(44, 2));
        try (CaptureReader r = Bytes.open(f.build())) {
            assertTrue(r.next());
            assertArrayEquals(Bytes.payload(33, 1), bytesOf(r));
            assertTrue(r.next());
            assertArrayEquals(big, bytesOf(r));
            assertTrue(r.next());
            assertArrayEquals(Bytes.payload(44, 2), bytesOf(r));
            assertEquals(24 + 16 + 33 + 16 + big.length, r.recordOffset());
            assertFalse(r.next());
        }
    }
}
