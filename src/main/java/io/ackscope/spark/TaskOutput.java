package io.ackscope.spark;

import io.ackscope.tables.ParquetTableWriter;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.TableSchema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.io.IOException;

/**
 * One table's output in a pass-2 task: its reused row, and its writer once the first row comes, at
 * {@code staging/<table>/_temporary/<attempt>/part-NNNNN.snappy.parquet} (the name {@link TableCommit} orders
 * the partitions' files by).
 */
final class TaskOutput {
    final TableSchema table;
    final RowBuffer row;
    private ParquetTableWriter writer;
    private String path;

    TaskOutput(TableSchema table) {
        this.table = table;
        this.row = new RowBuffer(table);
    }

    /** Writes {@link #row}, opening the task's file on the first row. */
    void write(String stagingRoot, long attempt, int partition, Configuration conf) throws IOException {
        if (writer == null) {
            path = stagingRoot + "/" + table.name() + "/_temporary/" + attempt + "/part-"
                    + String.format("%05d", partition) + ".snappy.parquet";
            writer = TableFiles.writer(table, new Path(path), conf);
        }
        writer.write(row);
    }

    /** The file written, or null when no row came. */
    EngineTask.Written written() {
        return writer == null ? null : new EngineTask.Written(table.name(), path, writer.rows());
    }

    void close() throws IOException {
        if (writer != null) {
            writer.close();
        }
    }
}
