package io.ackscope.spark;

import io.ackscope.spark.source.HadoopSeekableInput;
import io.ackscope.spark.source.SparkSchemas;

import io.ackscope.tables.ParquetTableWriter;
import io.ackscope.tables.TableSchema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.util.HadoopStreams;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

import java.io.IOException;

/**
 * Opens the table writers of {@code analyze} on a Hadoop filesystem: {@link ParquetTableWriter} (which knows neither
 * Hadoop filesystems nor Spark) with the table's Spark schema in the footer, so {@code spark.read.parquet} gives back
 * exactly {@link SparkSchemas#of}.
 */
final class TableFiles {
    private TableFiles() {
    }

    /**
     * Opens {@code file} for writing (it must not exist). A {@code file:} path is written through Hadoop's raw local
     * filesystem, without a {@code .crc} side file (readers do not need one).
     */
    static ParquetTableWriter writer(TableSchema table, Path file, Configuration conf) throws IOException {
        return writer(table, file, conf, ParquetTableWriter.ROW_GROUP_BYTES);
    }

    /** With a row group size of {@code rowGroupBytes} instead of {@link ParquetTableWriter#ROW_GROUP_BYTES}. */
    static ParquetTableWriter writer(TableSchema table, Path file, Configuration conf, long rowGroupBytes)
            throws IOException {
        return new ParquetTableWriter(table, new TableOutputFile(file, conf), ParquetFileWriter.Mode.CREATE,
                SparkSchemas.footer(table), rowGroupBytes);
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
