package io.ackscope.spark;

import io.ackscope.tables.RowBuffer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import scala.collection.Seq;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import io.ackscope.capture.Corpus;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/** Shared helpers of the Spark tests: one local session per class, the corpus, rows in comparable form. */
public final class SparkTests {
    private SparkTests() {
    }

    /** A small local session: two cores, three shuffle partitions, no UI, loopback only. */
    public static SparkSession session(String name) {
        return SparkSession.builder()
                .master("local[2]")
                .appName(name)
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "3")
                .getOrCreate();
    }

    /** The shared capture corpus; fails (does not skip) when it is missing. */
    public static Path corpus() {
        return Corpus.dir();
    }

    /** The corpus captures (*.pcap, *.pcapng), sorted by name. */
    public static List<Path> corpusCaptures() throws java.io.IOException {
        try (var s = Files.list(corpus())) {
            return s.filter(f -> f.getFileName().toString().matches(".*\\.pcap(ng)?$")).sorted().toList();
        }
    }

    /** Copies the corpus captures {@code names} into {@code dir} (created); returns {@code dir}. */
    public static Path copyCorpus(Path dir, String... names) throws java.io.IOException {
        Files.createDirectories(dir);
        for (String n : names) {
            Files.copy(corpus().resolve(n), dir.resolve(n));
        }
        return dir;
    }

    /** A bundled sample capture from sample-pcaps/. */
    public static Path sample(String name) {
        Path p = Path.of("sample-pcaps", name).toAbsolutePath();
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException("missing sample capture " + p);
        }
        return p;
    }

    /** The bundled sample {@code name} ({@code X.pcap.gz}) decompressed into {@code dir} as {@code X.pcap}. */
    public static Path gunzippedSample(String name, Path dir) throws java.io.IOException {
        Path out = Files.createDirectories(dir).resolve(name.replaceFirst("\\.gz$", ""));
        try (java.io.InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(sample(name)))) {
            Files.copy(in, out);
        }
        return out;
    }

    /**
     * A row read back from Parquet in the form {@link RowBuffer#toObjects()} gives: timestamps as epoch
     * microseconds, arrays as lists, maps as sorted maps.
     */
    public static List<Object> comparable(Row r) {
        List<Object> out = new ArrayList<>(r.size());
        for (int i = 0; i < r.size(); i++) {
            out.add(comparableValue(r.get(i)));
        }
        return out;
    }

    private static Object comparableValue(Object v) {
        if (v instanceof Timestamp t) {
            Instant in = t.toInstant();
            return in.getEpochSecond() * 1_000_000L + in.getNano() / 1000;
        }
        if (v instanceof Instant in) {
            return in.getEpochSecond() * 1_000_000L + in.getNano() / 1000;
        }
        if (v instanceof Seq<?> s) {
            List<Object> l = new ArrayList<>();
            scala.jdk.javaapi.CollectionConverters.asJava(s).forEach(x -> l.add(comparableValue(x)));
            return l;
        }
        if (v instanceof scala.collection.Map<?, ?> m) {
            return new TreeMap<>(scala.jdk.javaapi.CollectionConverters.asJava(m));
        }
        if (v instanceof byte[] b) {
            return Arrays.toString(b);
        }
        return v;
    }

    /** {@link RowBuffer#toObjects()} in the same comparable form. */
    public static List<Object> comparable(RowBuffer b) {
        List<Object> out = new ArrayList<>();
        for (Object v : b.toObjects()) {
            if (v instanceof Map<?, ?> m) {
                out.add(new TreeMap<>(m));
            } else if (v instanceof byte[] bytes) {
                out.add(Arrays.toString(bytes));
            } else {
                out.add(v);
            }
        }
        return out;
    }

    /**
     * Runs {@code ackscope analyze ARGS} as a user would (its own embedded session, stopped at the end); returns what
     * it printed to System.out, and fails the test with that and System.err when it exits other than 0.
     */
    public static String analyzeCommand(String... args) {
        java.io.ByteArrayOutputStream console = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream stdout = System.out;
        String[] command = new String[args.length + 1];
        command[0] = "analyze";
        System.arraycopy(args, 0, command, 1, args.length);
        int code;
        try (java.io.PrintStream capture = new java.io.PrintStream(console, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            code = io.ackscope.cli.Main.run(command, capture,
                    new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
        } finally {
            System.setOut(stdout);
        }
        String printed = console.toString(StandardCharsets.UTF_8);
        stdout.print(printed);
        if (code != 0) {
            throw new AssertionError("analyze exited " + code + ":\n" + printed + err.toString(StandardCharsets.UTF_8));
        }
        return printed;
    }

    /**
     * The rows of table {@code table} of the analyze output {@code out} (any Hadoop filesystem URI), read with
     * parquet-avro (no Spark job), as text, sorted; each row with the columns {@code keep} accepts, in schema order.
     */
    public static List<String> tableText(String out, String table, Configuration conf, Predicate<String> keep)
            throws java.io.IOException {
        org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(out, table);
        FileSystem fs = dir.getFileSystem(conf);
        List<String> rows = new ArrayList<>();
        List<org.apache.hadoop.fs.Path> parts = new ArrayList<>();
        // flat or Hive-partitioned (source=.../date=...), hidden entries (_*, .*) skipped as Spark skips them
        java.net.URI root = fs.makeQualified(dir).toUri();
        for (var it = fs.listFiles(dir, true); it.hasNext(); ) {
            org.apache.hadoop.fs.Path p = it.next().getPath();
            String rel = "/" + root.relativize(p.toUri()).getPath();
            if (p.getName().endsWith(".parquet") && !rel.contains("/_") && !rel.contains("/.")) {
                parts.add(p);
            }
        }
        for (org.apache.hadoop.fs.Path part : parts) {
            try (ParquetReader<GenericRecord> reader = AvroParquetReader.<GenericRecord>builder(
                    HadoopInputFile.fromPath(part, conf)).build()) {
                for (GenericRecord r; (r = reader.read()) != null; ) {
                    List<Object> values = new ArrayList<>();
                    for (Schema.Field f : r.getSchema().getFields()) {
                        if (keep.test(f.name())) {
                            values.add(r.get(f.pos()));
                        }
                    }
                    rows.add(values.toString());
                }
            }
        }
        rows.sort(null);
        return rows;
    }

    /** Sorts rows by their text form, for comparing multisets of rows. */
    public static List<String> sortedText(List<List<Object>> rows) {
        List<String> s = new ArrayList<>(rows.size());
        for (List<Object> r : rows) {
            s.add(r.toString());
        }
        s.sort(null);
        return s;
    }
}
