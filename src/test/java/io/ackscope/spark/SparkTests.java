package io.ackscope.spark;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import scala.collection.Seq;

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

/** Shared helpers of the Spark tests: one local session per class, the corpus, rows in comparable form. */
final class SparkTests {
    private SparkTests() {
    }

    /** A small local session: two cores, three shuffle partitions, no UI, loopback only. */
    static SparkSession session(String name) {
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
    static Path corpus() {
        return Corpus.dir();
    }

    /** The corpus captures (*.pcap, *.pcapng), sorted by name. */
    static List<Path> corpusCaptures() throws java.io.IOException {
        try (var s = Files.list(corpus())) {
            return s.filter(f -> f.getFileName().toString().matches(".*\\.pcap(ng)?$")).sorted().toList();
        }
    }

    /** Copies the corpus captures {@code names} into {@code dir} (created); returns {@code dir}. */
    static Path copyCorpus(Path dir, String... names) throws java.io.IOException {
        Files.createDirectories(dir);
        for (String n : names) {
            Files.copy(corpus().resolve(n), dir.resolve(n));
        }
        return dir;
    }

    /** A bundled sample capture from sample-pcaps/. */
    static Path sample(String name) {
        Path p = Path.of("sample-pcaps", name).toAbsolutePath();
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException("missing sample capture " + p);
        }
        return p;
    }

    /** The bundled sample {@code name} ({@code X.pcap.gz}) decompressed into {@code dir} as {@code X.pcap}. */
    static Path gunzippedSample(String name, Path dir) throws java.io.IOException {
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
    static List<Object> comparable(Row r) {
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
    static List<Object> comparable(RowBuffer b) {
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

    /** Sorts rows by their text form, for comparing multisets of rows. */
    static List<String> sortedText(List<List<Object>> rows) {
        List<String> s = new ArrayList<>(rows.size());
        for (List<Object> r : rows) {
            s.add(r.toString());
        }
        s.sort(null);
        return s;
    }
}
