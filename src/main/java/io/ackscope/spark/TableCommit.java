package io.ackscope.spark;

import io.ackscope.tables.EngineTables;
import io.ackscope.tables.ParquetTableWriter;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.TableSchema;
import io.ackscope.tables.VantageTables;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Puts {@code analyze}'s tables into the staging directory of its output: the engine tasks' files (moved, or
 * copied into one file when the table is small) and the tables the driver makes. {@link OutputDirectory} then
 * commits the staging directory as a whole.
 */
final class TableCommit {
    private TableCommit() {
    }

    /** The tables the engine's tasks write: the engine tables, then {@code one_way_delays}. */
    private static final List<TableSchema> TASK_TABLES = Stream.concat(EngineTables.ALL.stream(),
            Stream.of(VantageTables.ONE_WAY_DELAYS)).toList();

    /**
     * Moves each task's files into their tables (one winning attempt per partition: the results Spark returned),
     * or, for a table whose files together are under {@code oneFileBytes} ({@link TableFiles#ONE_FILE_BYTES}),
     * writes them as one file;
     * removes the other attempts' leftovers, gives a table without rows one empty file (so its schema is there),
     * and marks the tables done.
     */
    static Map<String, Long> engineTables(OutputDirectory out, List<EngineTask.Result> results,
                                          long oneFileBytes) throws IOException {
        FileSystem fs = out.fs();
        Map<String, Long> rows = new LinkedHashMap<>();
        Map<String, List<Path>> written = new LinkedHashMap<>();
        for (TableSchema t : TASK_TABLES) {
            rows.put(t.name(), 0L);
            written.put(t.name(), new ArrayList<>());
        }
        for (EngineTask.Result r : results) {
            for (EngineTask.Written w : r.files()) {
                written.get(w.table()).add(new Path(w.path()));
                rows.merge(w.table(), w.rows(), Long::sum);
            }
        }
        for (Map.Entry<String, List<Path>> e : written.entrySet()) {
            List<Path> files = e.getValue();
            long bytes = 0;
            for (Path p : files) {
                bytes += fs.getFileStatus(p).getLen();
            }
            if (files.size() > 1 && bytes < oneFileBytes) {
                files.sort(Comparator.comparing(Path::getName)); // in partition order
                TableFiles.coalesce(files, new Path(out.staged(e.getKey()), "part-00000.snappy.parquet"),
                        fs.getConf());
                continue;
            }
            for (Path from : files) {
                Path to = new Path(out.staged(e.getKey()), from.getName());
                if (!fs.rename(from, to)) {
                    throw new IOException("cannot move " + from + " to " + to);
                }
            }
        }
        for (TableSchema t : TASK_TABLES) {
            Path dir = out.staged(t.name());
            fs.delete(new Path(dir, "_temporary"), true);
            FileStatus[] parts = fs.exists(dir) ? fs.listStatus(dir) : new FileStatus[0];
            if (parts.length == 0) {
                TableFiles.writer(t, new Path(dir, "part-00000.snappy.parquet"), fs.getConf()).close();
            }
            out.tableDone(t.name());
        }
        return rows;
    }

    /** Writes a table made on the driver as one file and notes its row count in {@code tableRows}. */
    static void smallTable(OutputDirectory out, TableSchema t, List<RowBuffer> rows, Configuration conf,
                           Map<String, Long> tableRows) throws IOException {
        try (ParquetTableWriter w = TableFiles.writer(t, new Path(out.staged(t.name()),
                "part-00000.snappy.parquet"), conf)) {
            for (RowBuffer r : rows) {
                w.write(r);
            }
        }
        out.tableDone(t.name());
        tableRows.put(t.name(), (long) rows.size());
    }
}
