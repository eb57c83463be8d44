package io.ackscope.tables;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The codecs a {@link org.apache.parquet.hadoop.ParquetFileReader} decompresses pages with: SNAPPY (what
 * {@link ParquetTableWriter} and Spark write) as one raw Snappy block per page, decompressed by snappy-java into an
 * array of the page's size, and UNCOMPRESSED as it is; any other codec by parquet-mr's own factory, made when first
 * asked for.
 *
 * <p>parquet-mr's SNAPPY decompressor goes through Hadoop's codec API: its factory creates the codec by reflection
 * (which initialises Hadoop's {@code JobConf} and its deprecated keys), the codec reads a buffer size from a Hadoop
 * {@code Configuration} made for the reader (which parses Hadoop's default XML resources, once per file opened), and
 * every page is decompressed through a new stream with buffers of its own, into bytes copied once more when the page
 * is decoded. In a profile of {@code report} over a 232 k-connection output those were a tenth of its samples.
 *
 * <p>One instance per reader, as parquet-mr's factories are: it is not thread-safe.
 */
final class PageDecompressors implements CompressionCodecFactory {
    private CodecFactory others;

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return switch (codec) {
            case SNAPPY -> SNAPPY;
            case UNCOMPRESSED -> UNCOMPRESSED;
            default -> others().getDecompressor(codec);
        };
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        // readers only decompress; parquet-mr's file reader never asks for a compressor
        return others().getCompressor(codec);
    }

    private CodecFactory others() {
        if (others == null) {
            others = new CodecFactory(new PlainParquetConfiguration(), 0);
        }
        return others;
    }

    @Override
    public void release() {
        if (others != null) {
            others.release();
            others = null;
        }
    }

    private static final BytesInputDecompressor SNAPPY = new BytesInputDecompressor() {
        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
            byte[] in = bytes.toByteArray();
            byte[] out = new byte[uncompressedSize];
            int n = org.xerial.snappy.Snappy.uncompress(in, 0, in.length, out, 0);
            if (n != uncompressedSize) {
                throw new IOException("a Snappy page of " + in.length + " bytes decompressed to " + n
                        + " bytes, not the " + uncompressedSize + " its header says");
            }
            return BytesInput.from(out);
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int decompressedSize)
                throws IOException {
            byte[] in = new byte[compressedSize];
            input.duplicate().get(in);
            output.put(decompress(BytesInput.from(in), decompressedSize).toByteBuffer());
        }

        @Override
        public void release() {
        }
    };

    private static final BytesInputDecompressor UNCOMPRESSED = new BytesInputDecompressor() {
        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) {
            return bytes;
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int decompressedSize) {
            ByteBuffer in = input.duplicate();
            in.limit(in.position() + compressedSize);
            output.put(in);
        }

        @Override
        public void release() {
        }
    };
}
