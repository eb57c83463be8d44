package io.ackscope.spark.commit;

import io.ackscope.tables.ParquetTableWriter;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.TableSchema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One table's output in a pass-2 task: its reused row, and one writer per partition directory of the table
 * ({@code source=.../date=...}, or {@code ""} for a flat table) once the first row of that partition comes, at
 * {@code staging/<table>/_temporary/<attempt>/<partition>/part-NNNNN.snappy.parquet} (the name {@link TableCommit}
 * orders the partitions' files by; {@code open-NNNNN} for provisional rows).
 */
public final class TaskOutput {
    final TableSchema table;
    public final RowBuffer row;
    private final Map<String, ParquetTableWriter> writers = new LinkedHashMap<>();
    private final Map<String, String> paths = new LinkedHashMap<>();
    private final Map<String, String> dirs = new LinkedHashMap<>();
    private String lastPartition;
    private ParquetTableWriter last;

    public TaskOutput(TableSchema table) {
        this.table = table;
        this.row = new RowBuffer(table);
    }

    /** Writes {@link #row} into a flat table, opening the task's file on the first row. */
    public void write(String stagingRoot, long attempt, int partition, Configuration conf) throws IOException {
        write("", stagingRoot, attempt, partition, conf);
    }

    /** Writes {@link #row} into the partition directory {@code dir} ({@code ""}: the table's own directory). */
    public void write(String dir, String stagingRoot, long attempt, int partition, Configuration conf)
            throws IOException {
        write(dir, false, stagingRoot, attempt, partition, conf);
    }

    /**
     * Writes {@link #row} into the partition directory {@code dir}; a {@code provisional} row (of a connection still
     * open when a carrying run held its source: {@link io.ackscope.spark.engine.EngineCarry}) into the directory's
     * {@value #PROVISIONAL}* file, which the next run of the source retires.
     */
    public void write(String dir, boolean provisional, String stagingRoot, long attempt, int partition,
                      Configuration conf) throws IOException {
        String key = provisional ? PROVISIONAL + dir : dir;
        if (!key.equals(lastPartition)) {
            ParquetTableWriter w = writers.get(key);
            if (w == null) {
                String path = stagingRoot + "/" + table.name() + "/_temporary/" + attempt + "/"
                        + (dir.isEmpty() ? "" : dir + "/") + (provisional ? PROVISIONAL : FINAL)
                        + String.format("%05d", partition) + ".snappy.parquet";
                w = TableFiles.writer(table, new Path(path), conf);
                writers.put(key, w);
                paths.put(key, path);
                dirs.put(key, dir);
            }
            lastPartition = key;
            last = w;
        }
        last.write(row);
    }

    /** The name prefix of a task's file of final rows. */
    static final String FINAL = "part-";
    /** The name prefix of a task's file of provisional rows. */
    public static final String PROVISIONAL = "open-";

    /**
     * A table file one task attempt wrote.
     *
     * @param dir the partition directory of its rows in the table ({@code source=.../date=...}; {@code ""} flat)
     */
    public record Written(String table, String dir, String path, long rows) implements Serializable {
    }

    /** The files written, one per partition directory (and kind of rows) that got rows. */
    public List<Written> written() {
        List<Written> out = new ArrayList<>();
        writers.forEach((key, w) -> out.add(new Written(table.name(), dirs.get(key), paths.get(key),
                w.rows())));
        return out;
    }

    public void close() throws IOException {
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
