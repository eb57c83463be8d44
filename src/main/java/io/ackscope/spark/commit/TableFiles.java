package io.ackscope.spark.commit;

import io.ackscope.spark.source.HadoopSeekableInput;
import io.ackscope.spark.source.SparkSchemas;

import io.ackscope.tables.LongColumnRewrite;
import io.ackscope.tables.ParquetFiles;
import io.ackscope.tables.ParquetTableWriter;
import io.ackscope.tables.TableSchema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.hadoop.util.HadoopStreams;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

import java.io.IOException;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * Opens the table writers of {@code analyze} on a Hadoop filesystem: {@link ParquetTableWriter} (which knows neither
 * Hadoop filesystems nor Spark) with the table's Spark schema in the footer, so {@code spark.read.parquet} gives back
 * exactly {@link SparkSchemas#of}.
 */
public final class TableFiles {
    private TableFiles() {
    }

    /**
     * Opens {@code file} for writing (it must not exist). A {@code file:} path is written through Hadoop's raw local
     * filesystem, without a {@code .crc} side file (readers do not need one).
     */
    public static ParquetTableWriter writer(TableSchema table, Path file, Configuration conf) throws IOException {
        return writer(table, file, conf, ParquetTableWriter.ROW_GROUP_BYTES);
    }

    /** With a row group size of {@code rowGroupBytes} instead of {@link ParquetTableWriter#ROW_GROUP_BYTES}. */
    public static ParquetTableWriter writer(TableSchema table, Path file, Configuration conf, long rowGroupBytes)
            throws IOException {
        return new ParquetTableWriter(table, new TableOutputFile(file, conf), ParquetFileWriter.Mode.CREATE,
                SparkSchemas.footer(table), rowGroupBytes);
    }

    /**
     * A table whose task files together are smaller than this is written as one file ({@link #coalesce}): Spark
     * reads a file this small as one task anyway ({@code spark.sql.files.maxPartitionBytes} is 128 MB), so more
     * files only cost a footer each (about 37 KB of schema and indexes for a table of 21 rows) and a listing,
     * while copying them through the driver costs at most this many bytes per table. Larger tables keep one file
     * per engine task, written in parallel.
     */
    public static final long ONE_FILE_BYTES = 16L << 20;

    /** The Spark setting that replaces {@link #ONE_FILE_BYTES} ({@code --conf spark.ackscope.oneFileBytes=0}: never). */
    public static final String ONE_FILE_CONF = "spark.ackscope.oneFileBytes";

    /**
     * Writes the Parquet files {@code parts} (files of one table, written by {@link #writer}) as the one file
     * {@code into}, copying their row groups as they are (nothing decoded), with the first part's key-value
     * metadata (the Spark schema and the schema version), then deletes the parts.
     */
    static void coalesce(List<Path> parts, Path into, Configuration conf) throws IOException {
        FileMetaData meta;
        try (ParquetFileReader r = ParquetFiles.open(HadoopInputFile.fromPath(parts.get(0), conf))) {
            meta = r.getFooter().getFileMetaData();
        }
        ParquetFileWriter w = new ParquetFileWriter(new TableOutputFile(into, conf), meta.getSchema(),
                ParquetFileWriter.Mode.CREATE, ParquetTableWriter.ROW_GROUP_BYTES, 0, null,
                ParquetProperties.builder().build());
        w.start();
        for (Path p : parts) {
            ParquetFiles.append(HadoopInputFile.fromPath(p, conf), w);
        }
        w.end(meta.getKeyValueMetaData());
        FileSystem fs = into.getFileSystem(conf);
        for (Path p : parts) {
            fs.delete(p, false);
        }
    }

    /**
     * Maps every value of the required INT64 column {@code column} of {@code file}, a file of {@link #writer}
     * ({@link LongColumnRewrite}: the other columns' chunks are copied as they are). The copy is written beside the
     * file, then takes its name.
     */
    public static void mapLongColumn(Path file, String column, LongUnaryOperator map, Configuration conf)
            throws IOException {
        Path copy = new Path(file.getParent(), file.getName() + ".mapped");
        LongColumnRewrite.rewrite(HadoopInputFile.fromPath(file, conf), new TableOutputFile(copy, conf), column, map);
        FileSystem fs = HadoopSeekableInput.captureFileSystem(file, conf);
        if (!fs.delete(file, false) || !fs.rename(copy, file)) {
            throw new IOException("cannot replace " + file + " with " + copy);
        }
    }

    /** A Parquet output file on a Hadoop filesystem; {@code file:} paths go through the raw local filesystem. */
    private static final class TableOutputFile implements OutputFile {
        private final Path path;
        private final FileSystem fs;

        TableOutputFile(Path path, Configuration conf) throws IOException {
            this.path = path;
            this.fs = HadoopSeekableInput.captureFileSystem(path, conf);
        }

        @Override
        public PositionOutputStream create(long blockSizeHint) throws IOException {
            return HadoopStreams.wrap(fs.create(path, false));
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
            return HadoopStreams.wrap(fs.create(path, true));
        }

        @Override
        public boolean supportsBlockSize() {
            return false;
        }

        @Override
        public long defaultBlockSize() {
            return 0;
        }

        @Override
        public String getPath() {
            return path.toString();
        }
    }
}
