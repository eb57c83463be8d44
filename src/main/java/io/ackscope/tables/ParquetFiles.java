package io.ackscope.tables;

import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.InputFile;

import java.io.IOException;

/**
 * Opening Parquet files for reading with parquet-mr's default read options, without a Hadoop {@code Configuration}
 * for them. {@link ParquetFileReader#open(InputFile)} (and {@link ParquetFileWriter#appendFile}, which calls it)
 * builds its options from a new Hadoop Configuration, which parses Hadoop's default XML resources again for every
 * file opened: in a profile of {@code analyze} on a 150 k-connection capture, a third of the stream-number rewrite's
 * samples and most of the small-file merge's. The file itself is read as the {@link InputFile} says (a
 * {@code HadoopInputFile} keeps its filesystem and configuration), its pages decompressed by {@link PageDecompressors}.
 */
public final class ParquetFiles {
    private ParquetFiles() {
    }

    /**
     * A reader of {@code in} with the default read options and {@link PageDecompressors} (new for each reader: a
     * codec factory is not shared).
     */
    public static ParquetFileReader open(InputFile in) throws IOException {
        return ParquetFileReader.open(in, ParquetReadOptions.builder(new PlainParquetConfiguration())
                .withCodecFactory(new PageDecompressors()).build());
    }

    /** Appends every row group of {@code in} to {@code out}, copied as bytes ({@link ParquetFileReader#appendTo}). */
    public static void append(InputFile in, ParquetFileWriter out) throws IOException {
        try (ParquetFileReader r = open(in)) {
            r.appendTo(out);
        }
    }
}
