package io.ackscope.spark.commit;

import io.ackscope.tables.EngineTables;
import io.ackscope.tables.HivePath;
import io.ackscope.tables.ParquetTableWriter;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.TableSchema;
import io.ackscope.tables.VantageTables;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Puts {@code analyze}'s tables into the staging directory of its output, in their partition directories
 * ({@link HivePath}): the engine tasks' files (moved, or copied into one file when a partition's files are small)
 * and the tables the driver makes. {@link OutputDirectory} then commits the staged files.
 *
 * <p>Every source the run analysed gets at least one file in each table partitioned by source, empty when it has
 * no rows there (in its first file's {@code date=} directory): the table's schema is always there, and an
 * incremental run that replaces a source's rows retires exactly the files under its {@code source=} directories.
 */
public final class TableCommit {
    private TableCommit() {
    }

    /** The tables the engine's tasks write: the engine tables, then {@code one_way_delays}. */
    private static final List<TableSchema> TASK_TABLES = Stream.concat(EngineTables.ALL.stream(),
            Stream.of(VantageTables.ONE_WAY_DELAYS)).toList();

    public static final String PART = "part-00000.snappy.parquet";

    /**
     * {@code name} with {@code tag} before its extension: a run that adds files to an earlier output tags every file
     * it writes with its own id, so that none takes the name of a file already in a partition directory.
     */
    static String tagged(String name, String tag) {
        if (tag.isEmpty()) {
            return name;
        }
        int dot = name.indexOf('.');
        return dot < 0 ? name + tag : name.substring(0, dot) + tag + name.substring(dot);
    }

    /**
     * Moves each task's files into their tables' partition directories (one winning attempt per partition: the files of
     * the results Spark returned), or, for a partition directory whose files together are under {@code oneFileBytes}
     * ({@link TableFiles#ONE_FILE_BYTES}), writes them as one file; removes the other attempts' leftovers, gives each
     * source without rows in a table one empty file there ({@code sourceDirs}: each source's directory for it) and a
     * flat table without rows one empty file, and marks the tables done.
     */
    public static Map<String, Long> engineTables(OutputDirectory out, List<TaskOutput.Written> files,
                                          long oneFileBytes, Map<String, String> sourceDirs) throws IOException {
        return engineTables(out, files, oneFileBytes, sourceDirs, "");
    }

    /**
     * As {@link #engineTables(OutputDirectory, List, long, Map)}, every file name {@link #tagged} with {@code tag};
     * {@code sourceDirs} then names only the sources new to the output (those it has have a file in every table).
     */
    public static Map<String, Long> engineTables(OutputDirectory out, List<TaskOutput.Written> files,
                                          long oneFileBytes, Map<String, String> sourceDirs, String tag)
            throws IOException {
        FileSystem fs = out.fs();
        Map<String, Long> rows = new LinkedHashMap<>();
        Map<String, Map<String, List<Path>>> written = new LinkedHashMap<>();
        for (TableSchema t : TASK_TABLES) {
            rows.put(t.name(), 0L);
            written.put(t.name(), new TreeMap<>());
        }
        for (TaskOutput.Written w : files) {
            // final and provisional rows (open-*) of a partition directory are kept in separate files
            String kind = new Path(w.path()).getName().startsWith(TaskOutput.PROVISIONAL) ? "\0open" : "";
            written.get(w.table()).computeIfAbsent(w.dir() + kind, d -> new ArrayList<>())
                    .add(new Path(w.path()));
            rows.merge(w.table(), w.rows(), Long::sum);
        }
        for (TableSchema t : TASK_TABLES) {
            Path table = out.staged(t.name());
            for (Map.Entry<String, List<Path>> e : written.get(t.name()).entrySet()) {
                boolean open = e.getKey().endsWith("\0open");
                String dir = open ? e.getKey().substring(0, e.getKey().length() - 5) : e.getKey();
                place(fs, e.getValue(), dir.isEmpty() ? table : new Path(table, dir), oneFileBytes,
                        tagged(open ? TaskOutput.PROVISIONAL + "00000.snappy.parquet" : PART, tag), tag);
            }
            fs.delete(new Path(table, "_temporary"), true);
            boolean flat = t == VantageTables.ONE_WAY_DELAYS;
            Collection<String> dirs = written.get(t.name()).keySet();
            if (flat && dirs.isEmpty() && tag.isEmpty()) {    // a run that appends keeps the earlier file
                TableFiles.writer(t, new Path(table, PART), fs.getConf()).close();
            } else if (!flat) {
                emptySources(t, table, dirs, sourceDirs, fs.getConf(), tag);
            }
            out.tableDone(t.name());
        }
        return rows;
    }

    /**
     * Moves {@code files} into {@code dir}, or copies them into one file there, {@code one}, when they are small
     * together.
     */
    private static void place(FileSystem fs, List<Path> files, Path dir, long oneFileBytes, String one, String tag)
            throws IOException {
        long bytes = 0;
        for (Path p : files) {
            bytes += fs.getFileStatus(p).getLen();
        }
        fs.mkdirs(dir);
        if (files.size() > 1 && bytes < oneFileBytes) {
            files.sort(Comparator.comparing(Path::getName)); // in partition order
            TableFiles.coalesce(files, new Path(dir, one), fs.getConf());
            return;
        }
        for (Path from : files) {
            Path to = new Path(dir, tagged(from.getName(), tag));
            if (!fs.rename(from, to)) {
                throw new IOException("cannot move " + from + " to " + to);
            }
        }
    }

    /** An empty file for each source of {@code sourceDirs} that none of {@code dirs} (written ones) is under. */
    private static void emptySources(TableSchema t, Path table, Collection<String> dirs,
                                     Map<String, String> sourceDirs, Configuration conf, String tag)
            throws IOException {
        for (Map.Entry<String, String> s : sourceDirs.entrySet()) {
            String prefix = HivePath.sourceDir(s.getKey()) + "/";
            if (dirs.stream().noneMatch(d -> d.startsWith(prefix))) {
                TableFiles.writer(t, new Path(new Path(table, s.getValue()), tagged(PART, tag)), conf).close();
            }
        }
    }

    /** Writes a flat table made on the driver as one file and notes its row count in {@code tableRows}. */
    public static void smallTable(OutputDirectory out, TableSchema t, List<RowBuffer> rows, Configuration conf,
                           Map<String, Long> tableRows) throws IOException {
        partitioned(out, t, Map.of("", rows), conf, tableRows);
    }

    /**
     * Writes a table made on the driver as one file per partition directory ({@code byDir}: the rows of each;
     * {@code ""} is the table's own directory; an empty list gives an empty file) and notes its row count.
     */
    public static void partitioned(OutputDirectory out, TableSchema t, Map<String, List<RowBuffer>> byDir,
                            Configuration conf, Map<String, Long> tableRows) throws IOException {
        partitioned(out, t, byDir, conf, tableRows, "");
    }

    /** As {@link #partitioned(OutputDirectory, TableSchema, Map, Configuration, Map)}, file names {@link #tagged}. */
    public static void partitioned(OutputDirectory out, TableSchema t, Map<String, List<RowBuffer>> byDir,
                            Configuration conf, Map<String, Long> tableRows, String tag) throws IOException {
        long n = 0;
        for (Map.Entry<String, List<RowBuffer>> e : byDir.entrySet()) {
            Path dir = e.getKey().isEmpty() ? out.staged(t.name()) : new Path(out.staged(t.name()), e.getKey());
            try (ParquetTableWriter w = TableFiles.writer(t, new Path(dir, tagged(PART, tag)), conf)) {
                for (RowBuffer r : e.getValue()) {
                    w.write(r);
                }
            }
            n += e.getValue().size();
        }
        out.tableDone(t.name());
        tableRows.put(t.name(), n);
    }

    /**
     * {@code rows} of a table partitioned by source only, grouped by their {@code source} column into
     * {@code source=<name>} directories; every source of {@code sources} gets one (empty when it has no rows).
     */
    public static Map<String, List<RowBuffer>> bySource(TableSchema t, List<RowBuffer> rows,
                                                        Collection<String> sources) {
        Map<String, List<RowBuffer>> out = new TreeMap<>();
        for (String s : sources) {
            out.put(HivePath.sourceDir(s), new ArrayList<>());
        }
        int source = t.ordinal(HivePath.SOURCE);
        for (RowBuffer r : rows) {
            out.computeIfAbsent(HivePath.sourceDir(r.stringAt(source)), d -> new ArrayList<>()).add(r);
        }
        return out;
    }
}
