package io.ackscope.spark;

import io.ackscope.tables.ParquetTableWriter;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.TableSchema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One table's output in a pass-2 task: its reused row, and one writer per partition directory of the table
 * ({@code source=.../date=...}, or {@code ""} for a flat table) once the first row of that partition comes, at
 * {@code staging/<table>/_temporary/<attempt>/<partition>/part-NNNNN.snappy.parquet} (the name {@link TableCommit}
 * orders the partitions' files by).
 */
final class TaskOutput {
    final TableSchema table;
    final RowBuffer row;
    private final Map<String, ParquetTableWriter> writers = new LinkedHashMap<>();
    private final Map<String, String> paths = new LinkedHashMap<>();
    private String lastPartition;
    private ParquetTableWriter last;

    TaskOutput(TableSchema table) {
        this.table = table;
        this.row = new RowBuffer(table);
    }

    /** Writes {@link #row} into a flat table, opening the task's file on the first row. */
    void write(String stagingRoot, long attempt, int partition, Configuration conf) throws IOException {
        write("", stagingRoot, attempt, partition, conf);
    }

    /** Writes {@link #row} into the partition directory {@code dir} ({@code ""}: the table's own directory). */
    void write(String dir, String stagingRoot, long attempt, int partition, Configuration conf) throws IOException {
        if (!dir.equals(lastPartition)) {
            ParquetTableWriter w = writers.get(dir);
            if (w == null) {
                String path = stagingRoot + "/" + table.name() + "/_temporary/" + attempt + "/"
                        + (dir.isEmpty() ? "" : dir + "/") + "part-" + String.format("%05d", partition)
                        + ".snappy.parquet";
                w = TableFiles.writer(table, new Path(path), conf);
                writers.put(dir, w);
                paths.put(dir, path);
            }
            lastPartition = dir;
            last = w;
        }
        last.write(row);
    }

    /** The files written, one per partition directory that got rows. */
    List<EngineTask.Written> written() {
        List<EngineTask.Written> out = new ArrayList<>();
        writers.forEach((dir, w) -> out.add(new EngineTask.Written(table.name(), dir, paths.get(dir), w.rows())));
        return out;
    }

    void close() throws IOException {
        IOException first = null;
        for (ParquetTableWriter w : writers.values()) {
            try {
                w.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
