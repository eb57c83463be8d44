package io.ackscope.capture;

import com.github.luben.zstd.ZstdOutputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CapturesTest {

    private interface Compressor {
        OutputStream wrap(OutputStream out) throws IOException;
    }

    private static byte[] compress(byte[] plain, Compressor c) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (OutputStream out = c.wrap(bos)) {
            out.write(plain);
        }
        return bos.toByteArray();
    }

    private static Records.Outcome read(byte[] file) throws IOException, CaptureException {
        return Records.readAll(Captures.open(new ByteArrayInputStream(file), "fixture"));
    }

    private static void assertSameRecords(Records.Outcome want, Records.Outcome got) {
        assertEquals(want.records, got.records);
        assertEquals(want.tail, got.tail);
        assertEquals(want.endPosition, got.endPosition);
    }

    @Test
    void gzipZstdAndBzip2VersionsOfCorpusFilesReadIdentically() throws Exception {
        for (String file : List.of("zeek__bro.org.pcap", "pcpp__pcapng-example.pcapng",
                "gopacket__be_test202.pcapng", "ndpi__fuzz-2021-10-13.pcap")) {
            byte[] plain = Corpus.bytes(file);
            Records.Outcome want = read(plain);
            assertTrue(want.records.size() > 0);
            Compressor[] compressors = {GZIPOutputStream::new, ZstdOutputStream::new,
                BZip2CompressorOutputStream::new};
            Compression[] kinds = {Compression.GZIP, Compression.ZSTD, Compression.BZIP2};
            for (int i = 0; i < kinds.length; i++) {
                Records.Outcome got = read(compress(plain, compressors[i]));
                assertSameRecords(want, got);
                assertSame(kinds[i], got.info.compression(), file);
                assertSame(Compression.NONE, want.info.compression());
            }
        }
    }

    @Test
    void concatenatedGzipMembersSplitMidRecordReadAsOneStream() throws Exception {
        byte[] plain = Corpus.bytes("zeek__methods.pcap");
        int cut = 100_003;   // inside a record
        byte[] twoMembers = Bytes.concat(compress(Arrays.copyOf(plain, cut), GZIPOutputStream::new),
                compress(Arrays.copyOfRange(plain, cut, plain.length), GZIPOutputStream::new));
        assertSameRecords(read(plain), read(twoMembers));
        // the same through a stream that never reports available bytes (a pipe, a remote file)
        InputStream noAvailable = new ByteArrayInputStream(twoMembers) {
            @Override
            public synchronized int available() {
                return 0;
            }
        };
        assertSameRecords(read(plain), Records.readAll(Captures.open(noAvailable, "pipe")));
    }

    @Test
    void concatenatedZstdFramesAndBzip2StreamsReadAsOneStream() throws Exception {
        byte[] plain = Corpus.bytes("zeek__bro.org.pcap");
        int cut = 200_001;
        for (Compressor c : new Compressor[] {ZstdOutputStream::new, BZip2CompressorOutputStream::new}) {
            byte[] two = Bytes.concat(compress(Arrays.copyOf(plain, cut), c),
                    compress(Arrays.copyOfRange(plain, cut, plain.length), c));
            assertSameRecords(read(plain), read(two));
        }
    }

    @Test
    void cutShortCompressedStreamIsDamageAfterTheRecordsBeforeIt() throws Exception {
        byte[] plain = Corpus.bytes("zeek__bro.org.pcap");
        Records.Outcome whole = read(plain);
        // bzip2 with 100k blocks: its decompressor needs a whole block before it returns anything
        for (Compressor c : new Compressor[] {GZIPOutputStream::new, ZstdOutputStream::new,
            out -> new BZip2CompressorOutputStream(out, 1)}) {
            byte[] z = compress(plain, c);
            Records.Outcome cut = read(Arrays.copyOf(z, z.length / 2));
            assertNotNull(cut.error, "cut compressed stream must be reported");
            assertTrue(cut.records.size() > 0 && cut.records.size() < whole.records.size());
            assertEquals(whole.records.subList(0, cut.records.size()), cut.records);
            Records.Rec lastGood = cut.records.get(cut.records.size() - 1);
            assertEquals(lastGood.offset() + 16 + lastGood.capturedLength(), cut.error.offset(),
                    "damage reported at the record being read");
            assertTrue(cut.error.reason().contains(" data cut short at compressed byte " + z.length / 2 + " "),
                    cut.error.reason());
        }
    }

    @Test
    void corruptGzipDataIsDamageNotAnUncheckedException() throws Exception {
        byte[] z = compress(Corpus.bytes("zeek__bro.org.pcap"), GZIPOutputStream::new);
        for (int at : new int[] {2000, z.length / 2}) {
            byte[] bad = z.clone();
            for (int i = at; i < at + 10; i++) {
                bad[i] ^= 0x5a;
            }
            Records.Outcome out = Records.readStream(new ByteArrayInputStream(bad), "fixture");
            assertNotNull(out.error);
            assertTrue(out.error.reason().startsWith("gzip data damaged near compressed byte"), out.error.reason());
        }
    }

    @Test
    void unknownMagicIsDamageAtOffsetZeroNamingWhatWasFound() {
        CaptureException text = assertThrows(CaptureException.class,
                () -> read("GET / HTTP/1.1\r\n".getBytes()));
        assertEquals(0, text.offset());
        assertTrue(text.reason().startsWith("unknown magic 47455420 (looks like text)"), text.reason());
        CaptureException xz = assertThrows(CaptureException.class,
                () -> read(new byte[] {(byte) 0xfd, '7', 'z', 'X', 'Z', 0, 0, 0}));
        assertTrue(xz.reason().contains("(xz, not supported)"), xz.reason());
        CaptureException inside = assertThrows(CaptureException.class,
                () -> read(compress("not a capture".getBytes(), GZIPOutputStream::new)));
        assertTrue(inside.reason().startsWith("unknown magic 6e6f7420 inside the gzip stream"), inside.reason());
        CaptureException empty = assertThrows(CaptureException.class, () -> read(new byte[0]));
        assertEquals("empty file", empty.reason());
        CaptureException emptyGzip = assertThrows(CaptureException.class,
                () -> read(compress(new byte[0], GZIPOutputStream::new)));
        assertEquals("empty gzip stream", emptyGzip.reason());
    }

    @Test
    void formatIsDetectedByMagicNotByName() throws Exception {
        // pcpp__ipv6_options.pcap is pcapng content under a .pcap name
        try (CaptureReader r = Captures.open(Corpus.capture("pcpp__ipv6_options.pcap"))) {
            assertSame(CaptureFormat.PCAPNG, r.format());
        }
        try (CaptureReader r = Captures.open(new ByteArrayInputStream(Corpus.bytes("zeek__socks.pcap")),
                "misnamed.pcapng.gz")) {
            assertSame(CaptureFormat.PCAP, r.format());
            assertNull(r.tailProblem());
        }
    }

    @Test
    void damagedBzip2HeaderIsDamageAtOffsetZero() {
        CaptureException e = assertThrows(CaptureException.class,
                () -> read(new byte[] {'B', 'Z', 'h', '9', 1, 2, 3, 4, 5, 6, 7, 8}));
        assertEquals(0, e.offset());
        assertTrue(e.reason().startsWith("bzip2 data damaged near compressed byte"), e.reason());
    }

    @Test
    void zeroPaddingAfterTheLastGzipMemberIsIgnoredAndOtherTrailingBytesAreDamage() throws Exception {
        byte[] plain = Corpus.bytes("zeek__socks.pcap");
        byte[] z = compress(plain, GZIPOutputStream::new);
        assertSameRecords(read(plain), read(Arrays.copyOf(z, z.length + 4096)));
        byte[] garbage = Arrays.copyOf(z, z.length + 10);
        garbage[z.length + 7] = 'x';
        Records.Outcome out = read(garbage);
        assertEquals(read(plain).records, out.records);
        assertNotNull(out.error);
        assertEquals(plain.length, out.error.offset());
        assertTrue(out.error.reason().startsWith("gzip data damaged near compressed byte " + (z.length + 8)
                + " (decompressed byte " + plain.length + "): data after gzip member 1 is zeros, then not another "
                + "gzip member"), out.error.reason());
    }
}
