package io.ackscope.spark.views;

import io.ackscope.output.OutputMarker;
import io.ackscope.spark.source.SparkSchemas;
import io.ackscope.spark.source.VisibleFiles;
import io.ackscope.tables.SchemaDoc;
import io.ackscope.tables.TableSchema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Registers the tables of one or more {@code analyze} outputs as Spark SQL views, for {@code ackscope sql} and
 * {@code ackscope export}: each table a view of its name over every output that has it (outputs of several runs,
 * each with its own {@code source} values, read as one dataset). Only complete outputs are read: each one's
 * {@code _SUCCESS} must parse and name tables that are there, on any Hadoop filesystem, as {@code report} demands
 * locally.
 *
 * <p>A table is read with Spark's partition discovery over its directory: a Hive-partitioned table (schema version
 * 4: {@code NAME/source=.../date=.../*.parquet}) gives its partition columns, {@code date} as a {@code DATE} beside
 * the files' own columns and {@code source} in its place among them (the value from the path, unescaped, which is
 * the files' value; always a string, even when a source's name reads as a number), so {@code WHERE source = ... AND
 * date >= ...} reads only those directories; a flat table (up to version 3, and the unpartitioned small tables)
 * has no {@code date}. Outputs are read one by one and joined by column name, so flat and partitioned outputs, or
 * outputs of different schema versions, make one view (a column one lacks is null in its rows).
 *
 * <p>A view reads a snapshot: the Parquet files of the table that the marker's manifest lists, and no other (a
 * file put into a table directory by hand, or by a run that has not committed, is not read). A marker without a
 * manifest (an output of an older version) has its table directories read whole.
 */
public final class OutputViews {

    private OutputViews() {
    }

    /**
     * Checks each output and registers its tables; returns view name to the directories it reads.
     *
     * @throws IOException naming the output that is not complete
     */
    public static Map<String, List<String>> register(SparkSession spark, List<String> outputs) throws IOException {
        return register(spark, outputs, name -> true, false);
    }

    /**
     * As {@link #register(SparkSession, List)}, but makes views only of the tables {@code wanted} accepts (each
     * view costs a listing and a schema read per output), or of all of them when it accepts none; every output is
     * checked and every table is in the map returned. With {@code outputColumn}, every view also has the column
     * {@value #OUTPUT} last: the output directory each row was read from, as given, so rows of two outputs (whose
     * sources may have the same names) are told apart and compared without {@code input_file_name()}.
     */
    public static Map<String, List<String>> register(SparkSession spark, List<String> outputs,
                                                     java.util.function.Predicate<String> wanted,
                                                     boolean outputColumn) throws IOException {
        Configuration conf = spark.sparkContext().hadoopConfiguration();
        Found found = find(conf, outputs);
        Map<String, List<String>> tables = found.tables();
        Map<String, String> outputOf = new java.util.HashMap<>();     // table directory -> its output, as given
        for (String out : outputs) {
            for (String table : tables.keySet()) {
                outputOf.put(new Path(new Path(out), table).toString(), out);
            }
        }
        boolean anyWanted = tables.keySet().stream().anyMatch(wanted);
        for (Map.Entry<String, List<String>> e : tables.entrySet()) {
            if (anyWanted && !wanted.test(e.getKey())) {
                continue;
            }
            Dataset<Row> view = null;
            for (String t : e.getValue()) {
                List<String> parts = found.listed().get(t);
                boolean any = parts != null ? !parts.isEmpty() : hasFiles(new Path(t), conf);
                Dataset<Row> df = !any ? empty(spark, e.getKey())
                        : parts != null ? table(spark, t, parts) : table(spark, t);
                if (df == null) {
                    continue;
                }
                if (outputColumn) {
                    df = df.withColumn(OUTPUT, org.apache.spark.sql.functions.lit(outputOf.get(t)));
                }
                view = view == null ? df : view.unionByName(df, true);
            }
            if (view != null) {
                view.createOrReplaceTempView(e.getKey());
            }
        }
        return tables;
    }

    /**
     * The outputs checked as {@link #register} checks them, without Spark, for a reader of local files: each table's
     * name to its directories, and which part files it may read: those the manifests list, and every part file of
     * an output written before manifests (as {@link #register} reads them).
     *
     * @param tables each table's name to its directories
     * @param listed whether a local part file may be read
     */
    public record Local(Map<String, List<String>> tables, java.util.function.Predicate<java.nio.file.Path> listed) {
    }

    /**
     * {@link Local} of {@code outputs}; their markers are read once.
     *
     * @throws IOException naming the output that is not complete
     */
    public static Local local(Configuration conf, List<String> outputs) throws IOException {
        Found found = find(conf, outputs);
        java.util.Set<java.nio.file.Path> tables = new java.util.HashSet<>();
        java.util.Set<java.nio.file.Path> files = new java.util.HashSet<>();
        for (Map.Entry<String, List<String>> e : found.listed().entrySet()) {
            tables.add(local(e.getKey()));
            e.getValue().forEach(f -> files.add(local(f)));
        }
        return new Local(found.tables(), part -> {
            java.nio.file.Path p = part.toAbsolutePath().normalize();
            for (java.nio.file.Path t = p.getParent(); t != null; t = t.getParent()) {
                if (tables.contains(t)) {
                    return files.contains(p);
                }
            }
            return true;
        });
    }

    private static java.nio.file.Path local(String hadoopPath) {
        return java.nio.file.Path.of(new Path(hadoopPath).toUri().getPath()).toAbsolutePath().normalize();
    }

    /**
     * Each table's name to its directories, and each table directory to the part files its output's manifest lists
     * (relative; absent for an output written before manifests, whose directories are read whole).
     */
    private record Found(Map<String, List<String>> tables, Map<String, List<String>> listed) {
    }

    private static Found find(Configuration conf, List<String> outputs) throws IOException {
        Map<String, List<String>> tables = new LinkedHashMap<>();
        Map<String, List<String>> listed = new LinkedHashMap<>();
        for (String out : outputs) {
            Path dir = new Path(out);
            FileSystem fs = dir.getFileSystem(conf);
            OutputMarker marker = marker(fs, dir, out);
            for (String table : marker.tables().keySet()) {
                Path t = new Path(dir, table);
                if (!fs.isDirectory(t)) {
                    throw new OutputMarker.Invalid(out + " is not a complete ackscope analyze output: table " + table
                            + " is missing");
                }
                tables.computeIfAbsent(table, k -> new ArrayList<>()).add(t.toString());
                if (marker.hasManifest()) {
                    listed.put(t.toString(), listedParts(marker, table, t));
                }
            }
        }
        return new Found(tables, listed);
    }

    /**
     * One output's table directory, with its partition columns; {@code source} read as a string (partition
     * discovery would type a source named {@code 2026} as a number).
     */
    public static Dataset<Row> table(SparkSession spark, String dir) {
        return inferred(spark, dir, List.of(dir));   // a directory has no footer to read the schema from
    }

    /**
     * As {@link #table(SparkSession, String)}, reading only the Parquet files {@code files} of the table {@code dir}.
     * The files' own columns are the Spark schema ackscope's writer put in the first file's footer, read here: what
     * Spark's schema inference reads too (the first file's footer, its Spark schema taken as it is), but without
     * the Spark job inference runs for it (0.2-0.3 s of a one-query {@code sql}). Partition columns are discovered
     * from the paths as before; {@code source} is a string. A file whose footer has no Spark schema is read with
     * Spark's inference ({@link #inferred}).
     */
    public static Dataset<Row> table(SparkSession spark, String dir, List<String> files) {
        StructType written = writtenSchema(spark.sparkContext().hadoopConfiguration(), files.get(0));
        int source = written == null ? -1 : java.util.Arrays.asList(written.fieldNames()).indexOf(SOURCE);
        if (written == null || source >= 0 && written.fields()[source].dataType() != DataTypes.StringType) {
            return inferred(spark, dir, files);
        }
        Dataset<Row> df = spark.read().schema(written).option("basePath", dir).parquet(files.toArray(new String[0]));
        // Spark puts a partition column it was given the type of after the files' columns; inference leaves source
        // where the files have it, and so does this
        List<String> order = new ArrayList<>(List.of(written.fieldNames()));
        for (String c : df.columns()) {
            if (!order.contains(c)) {
                order.add(c);
            }
        }
        if (order.equals(List.of(df.columns()))) {
            return df;
        }
        return df.select(order.stream().map(c -> df.col("`" + c.replace("`", "``") + "`"))
                .toArray(org.apache.spark.sql.Column[]::new));
    }

    /**
     * The Spark schema in the footer of the Parquet file {@code file} (the key Spark's own writer and ackscope's use),
     * or null when it has none or cannot be read (Spark's inference then reads it or says why it cannot).
     */
    public static StructType writtenSchema(Configuration conf, String file) {
        try (org.apache.parquet.hadoop.ParquetFileReader reader = io.ackscope.tables.ParquetFiles.open(
                org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(new Path(file), conf))) {
            String json = reader.getFooter().getFileMetaData().getKeyValueMetaData().get(SparkSchemas.ROW_METADATA);
            return json != null && DataType.fromJson(json) instanceof StructType t ? t : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** {@link #table(SparkSession, String, List)} with the files' schema inferred by Spark. */
    public static Dataset<Row> inferred(SparkSession spark, String dir, List<String> files) {
        String[] paths = files.toArray(new String[0]);
        Dataset<Row> df = spark.read().option("basePath", dir).parquet(paths);
        StructType schema = df.schema();
        int source = java.util.Arrays.asList(schema.fieldNames()).indexOf(SOURCE);
        if (source < 0 || schema.fields()[source].dataType() == DataTypes.StringType) {
            return df;
        }
        StructField[] fields = schema.fields().clone();
        fields[source] = DataTypes.createStructField(SOURCE, DataTypes.StringType, true);
        return spark.read().schema(new StructType(fields)).option("basePath", dir).parquet(paths);
    }

    /**
     * The Parquet files of {@code table} that the manifest of {@code marker} lists, as paths below {@code dir} (the
     * table's directory); hidden entries ({@code _*}, {@code .*}) left out, as Spark leaves them. A listed file
     * that is missing fails the read, naming it (the output was changed by hand).
     */
    private static List<String> listedParts(OutputMarker marker, String table, Path dir) {
        List<String> parts = new ArrayList<>();
        String prefix = table + "/";
        for (String f : marker.files()) {
            if (f.startsWith(prefix) && f.endsWith(".parquet") && !("/" + f).contains("/_")
                    && !("/" + f).contains("/.")) {
                parts.add(dir.toString() + "/" + f.substring(prefix.length()));
            }
        }
        return parts;
    }

    /**
     * True when the table directory holds a Parquet file outside hidden entries ({@code _*}, {@code .*}): Spark
     * cannot infer the schema of one that holds none (a table without rows, where the writer left no file).
     */
    private static boolean hasFiles(Path table, Configuration conf) throws IOException {
        FileSystem fs = table.getFileSystem(conf);
        return !VisibleFiles.walk(fs, table, st -> !st.getPath().getName().endsWith(".parquet"));
    }

    /** An empty table of ackscope's schema for {@code name}, or null for a table this version does not know. */
    private static Dataset<Row> empty(SparkSession spark, String name) {
        for (TableSchema t : SchemaDoc.tables()) {
            if (t.name().equals(name)) {
                return spark.createDataFrame(List.of(), SparkSchemas.of(t));
            }
        }
        return null;
    }

    /**
     * The tables a SQL text can refer to: those whose name occurs in it as a word, in any case (a name in a comment
     * or a string counts too, which only costs a view).
     */
    public static java.util.function.Predicate<String> namedIn(String sql) {
        String lower = sql.toLowerCase(java.util.Locale.ROOT);
        return name -> java.util.regex.Pattern.compile("(?<![A-Za-z0-9_])" + java.util.regex.Pattern.quote(
                name.toLowerCase(java.util.Locale.ROOT)) + "(?![A-Za-z0-9_])").matcher(lower).find();
    }

    /** The column that names the output a row was read from ({@link #register(SparkSession, List, boolean)}). */
    public static final String OUTPUT = "output";

    /** The partition column (and data column) that names the capture source. */
    private static final String SOURCE = "source";

    /** Registers the captures {@code paths} (files, directories, globs) as the view {@code pcap}: one row a frame. */
    public static void registerCaptures(SparkSession spark, List<String> paths) {
        spark.read().format("pcap").load(paths.toArray(new String[0])).createOrReplaceTempView("pcap");
    }

    private static OutputMarker marker(FileSystem fs, Path dir, String name) throws IOException {
        Path file = new Path(dir, OutputMarker.FILE);
        if (!fs.exists(file)) {
            throw new OutputMarker.Invalid(name + " is not a complete ackscope analyze output (no "
                    + OutputMarker.FILE + (fs.isDirectory(dir) ? " marker)" : "; no such directory)"));
        }
        String text;
        try (FSDataInputStream in = fs.open(file)) {
            text = new String(in.readNBytes(16 << 20), StandardCharsets.UTF_8);
        }
        try {
            return OutputMarker.parse(text, file.toString());
        } catch (OutputMarker.Invalid e) {
            throw new OutputMarker.Invalid(name + " is not a complete ackscope analyze output: " + e.getMessage());
        }
    }
}
