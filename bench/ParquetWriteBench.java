import io.ackscope.tables.Column;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.ParquetTableWriter;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.TableSchema;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Times the project's hand-written Parquet writer ({@code tables.ParquetTableWriter}) against parquet-mr's own column
 * writers driven through a {@link WriteSupport} (no Avro), on the same rows of a flat engine table (rtt_samples by
 * default) with the same settings: Snappy, v1 pages of at most 1 MB / 20,000 rows, dictionary for strings and ints,
 * the same row group size. Not a test: a harness whose figures mean something only on a quiet machine; it prints
 * CPU time of this thread per million rows for each writer, in interleaved rounds, and the files' sizes.
 *
 * <pre>
 *   java -cp "target/ackscope.jar:target/lib/*" bench/ParquetWriteBench.java [rows] [rounds] [table]
 * </pre>
 */
public class ParquetWriteBench {

    /** Rows like an analyze of many short connections: uids shared by a few rows, a few hundred hosts, enums. */
    static Object[][] rows(TableSchema t, int n) {
        SplittableRandom r = new SplittableRandom(42);
        List<Column> cols = t.columns();
        Object[][] rows = new Object[n][];
        long time = 1_796_300_074_160_987_000L;
        // as the engine writes them: one String per connection's uid, per host address and per enum name, shared by
        // every row that has it; three connections' rows interleaved, six rows each
        String[] uids = new String[n / 6 + 3];
        String[] ips = new String[400];
        for (int k = 0; k < ips.length; k++) {
            ips[k] = "10.0." + k / 200 + "." + k % 200;
        }
        String[] kinds = {"KIND_0", "KIND_1", "KIND_2", "KIND_3"};
        for (int i = 0; i < n; i++) {
            int conn = (i / 18) * 3 + i % 3;
            Object[] row = new Object[cols.size()];
            time += r.nextLong(50_000);
            for (int c = 0; c < cols.size(); c++) {
                Column col = cols.get(c);
                String name = col.name();
                row[c] = switch (col.type()) {
                    case STRING -> name.contains("uid") ? uid(uids, conn)
                            : name.endsWith("ip") ? ips[r.nextInt(ips.length)]
                            : name.equals("source") ? "mix" : kinds[r.nextInt(4)];
                    case LONG -> name.contains("frame") || name.equals("stream") ? (long) i * 3 + r.nextInt(3)
                            : r.nextLong(1_000_000);
                    case TIMESTAMP -> time;
                    case INT -> name.contains("port") ? 32768 + r.nextInt(20000) : r.nextInt(16);
                    case BOOLEAN -> r.nextInt(10) == 0;
                    case DOUBLE -> r.nextDouble() * 1000;
                    default -> throw new IllegalArgumentException(name + ": " + col.type() + " not generated");
                };
            }
            rows[i] = row;
        }
        return rows;
    }

    /** Connection {@code conn}'s uid, made once. */
    static String uid(String[] uids, int conn) {
        if (uids[conn] == null) {
            uids[conn] = "C" + Long.toString(0x5DEECE66DL * conn, 36);
        }
        return uids[conn];
    }

    static void handWritten(TableSchema t, Object[][] rows, OutputFile out) throws Exception {
        RowBuffer b = new RowBuffer(t);
        List<Column> cols = t.columns();
        try (ParquetTableWriter w = new ParquetTableWriter(t, out, ParquetFileWriter.Mode.CREATE, Map.of(),
                ParquetTableWriter.ROW_GROUP_BYTES)) {
            for (Object[] row : rows) {
                b.clear();
                for (int c = 0; c < row.length; c++) {
                    Object v = row[c];
                    switch (cols.get(c).type()) {
                        case STRING -> b.setString(c, (String) v);
                        case LONG -> b.setLong(c, (Long) v);
                        case TIMESTAMP -> b.setTimestampNanos(c, (Long) v);
                        case INT -> b.setInt(c, (Integer) v);
                        case BOOLEAN -> b.setBoolean(c, (Boolean) v);
                        case DOUBLE -> b.setDouble(c, (Double) v);
                        default -> throw new IllegalArgumentException();
                    }
                }
                w.write(b);
            }
        }
    }

    /** parquet-mr's record consumer and column writers, fed the same values. */
    static final class RowsSupport extends WriteSupport<Object[]> {
        final TableSchema table;
        final MessageType schema;
        RecordConsumer rc;

        RowsSupport(TableSchema table) {
            this.table = table;
            this.schema = ParquetTableWriter.parquetSchema(table);
        }

        @Override
        public WriteContext init(Configuration conf) {
            return new WriteContext(schema, Map.of());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            rc = recordConsumer;
        }

        @Override
        public void write(Object[] row) {
            List<Column> cols = table.columns();
            rc.startMessage();
            for (int c = 0; c < row.length; c++) {
                Column col = cols.get(c);
                rc.startField(col.name(), c);
                Object v = row[c];
                switch (col.type()) {
                    case STRING -> rc.addBinary(Binary.fromString((String) v));
                    case LONG -> rc.addLong((Long) v);
                    case TIMESTAMP -> rc.addLong(Math.floorDiv((Long) v, 1000L));
                    case INT -> rc.addInteger((Integer) v);
                    case BOOLEAN -> rc.addBoolean((Boolean) v);
                    case DOUBLE -> rc.addDouble((Double) v);
                    default -> throw new IllegalArgumentException();
                }
                rc.endField(col.name(), c);
            }
            rc.endMessage();
        }
    }

    static final class Builder extends ParquetWriter.Builder<Object[], Builder> {
        final TableSchema table;

        Builder(OutputFile out, TableSchema table) {
            super(out);
            this.table = table;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<Object[]> getWriteSupport(Configuration conf) {
            return new RowsSupport(table);
        }
    }

    static void library(TableSchema t, Object[][] rows, OutputFile out) throws Exception {
        try (ParquetWriter<Object[]> w = new Builder(out, t)
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                .withDictionaryEncoding(true)
                .withPageSize(1024 * 1024)
                .withDictionaryPageSize(1024 * 1024)
                .withPageRowCountLimit(20_000)
                .withRowGroupSize((long) ParquetTableWriter.ROW_GROUP_BYTES)
                .withConf(new Configuration(false))
                .build()) {
            for (Object[] row : rows) {
                w.write(row);
            }
        }
    }

    interface Writer {
        void write(TableSchema t, Object[][] rows, OutputFile out) throws Exception;
    }

    static long cpuNanos() {
        return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    static double run(String name, Writer w, TableSchema t, Object[][] rows, Path dir, int round) throws Exception {
        Path f = dir.resolve(name + round + ".parquet");
        long t0 = cpuNanos();
        w.write(t, rows, new LocalOutputFile(f));
        double ms = (cpuNanos() - t0) / 1e6;
        System.out.printf("round %d %-12s %8.1f ms CPU  %6.0f ns/row  %,d bytes%n", round, name, ms,
                ms * 1e6 / rows.length, Files.size(f));
        Files.delete(f);
        return ms;
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        TableSchema t = args.length > 2 ? EngineTables.class.getField(args[2].toUpperCase()).get(null) instanceof
                TableSchema s ? s : null : EngineTables.RTT_SAMPLES;
        Object[][] rows = rows(t, n);
        Path dir = Files.createTempDirectory("parquet-write-bench");
        System.out.printf("%s: %,d rows, %d columns; 2 warm-up rounds, then %d measured%n", t.name(), n,
                t.columns().size(), rounds);
        double[] hand = new double[rounds], lib = new double[rounds];
        for (int i = -2; i < rounds; i++) {
            double a = run("hand-written", ParquetWriteBench::handWritten, t, rows, dir, i);
            double b = run("parquet-mr", ParquetWriteBench::library, t, rows, dir, i);
            if (i >= 0) {
                hand[i] = a;
                lib[i] = b;
            }
        }
        java.util.Arrays.sort(hand);
        java.util.Arrays.sort(lib);
        System.out.printf("median CPU: hand-written %.1f ms, parquet-mr %.1f ms (parquet-mr / hand-written %.2f)%n",
                hand[rounds / 2], lib[rounds / 2], lib[rounds / 2] / hand[rounds / 2]);
        Files.delete(dir);
    }
}
