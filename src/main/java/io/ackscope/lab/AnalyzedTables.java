package io.ackscope.lab;

import io.ackscope.tcp.AckClass;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.avro.AvroReadSupport;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.io.LocalInputFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The figures of one server endpoint from the Parquet tables that {@code ackscope analyze} wrote (the columns of
 * {@code docs/schema.md}): connections to the endpoint's port from {@code connections}, then their
 * {@code exchanges}, {@code stalls} and the client's {@code ack_delays}. The lab's tables are small (tens of
 * thousands of rows), so each is read whole, row by row.
 */
final class AnalyzedTables {

    private final Path dir;
    /** stream -> server endpoint ("127.0.0.1:PORT") */
    private final Map<Long, String> endpointOfStream = new HashMap<>();

    /** Reads the {@code connections} table of the analyze output {@code dir}. */
    AnalyzedTables(Path dir) throws IOException {
        this.dir = dir;
        scan("connections", r -> endpointOfStream.put(asLong(r, "stream"),
                text(r, "server_ip") + ":" + asLong(r, "server_port")));
    }

    /** What the tables hold for {@code server} ({@code 127.0.0.1:PORT}); all zero when nothing. */
    StallFigures figures(String server) throws IOException {
        long[] counts = new long[4]; // connections, exchanges, later, later stalled
        long[] firstStalled = new long[1];
        for (String e : endpointOfStream.values()) {
            if (e.equals(server)) {
                counts[0]++;
            }
        }
        scan("exchanges", r -> {
            if (server.equals(endpointOfStream.get(asLong(r, "stream")))) {
                boolean stalled = orZero(r, "stall_us") > 0 || orZero(r, "response_stall_us") > 0;
                counts[1]++;
                if (asLong(r, "exchange_index") > 0) {
                    counts[2]++;
                    counts[3] += stalled ? 1 : 0;
                } else if (stalled) {
                    firstStalled[0]++;
                }
            }
        });
        LongList stallAcks = new LongList();
        long[] held = new long[3]; // by the server, by the client, ended by a delayed-ACK timer
        scan("stalls", r -> {
            if (server.equals(endpointOfStream.get(asLong(r, "stream")))) {
                long ackDelay = asLong(r, "ack_delay_us");
                stallAcks.add(ackDelay);
                held["SERVER".equals(text(r, "holding_side")) ? 0 : 1]++;
                AckClass band = AckClass.delayedBand(ackDelay * 1000);
                if (band == AckClass.DELAYED_40MS || band == AckClass.DELAYED_200MS) {
                    held[2]++;
                }
            }
        });
        LongList clientAcks = new LongList();
        scan("ack_delays", r -> {
            if ("CLIENT".equals(text(r, "acking_side"))
                    && server.equals(endpointOfStream.get(asLong(r, "stream")))) {
                clientAcks.add(asLong(r, "ack_delay_us"));
            }
        });
        stallAcks.sort();
        clientAcks.sort();
        return new StallFigures(counts[0], counts[1], counts[2], counts[3], firstStalled[0], held[0], held[1],
                held[2], stallAcks.rank(0), stallAcks.rank(0.5), stallAcks.rank(1), clientAcks.rank(0.5),
                clientAcks.rank(0.99));
    }

    private interface RowConsumer {
        void accept(GenericRecord r) throws IOException;
    }

    private void scan(String table, RowConsumer consumer) throws IOException {
        Path tableDir = dir.resolve(table);
        List<Path> parts;
        try (Stream<Path> s = Files.list(tableDir)) {
            parts = s.filter(p -> p.getFileName().toString().endsWith(".parquet")).sorted().toList();
        } catch (IOException e) {
            throw new IOException("ackscope analyze wrote no table " + table + " in " + dir, e);
        }
        PlainParquetConfiguration conf = new PlainParquetConfiguration();
        conf.setBoolean(AvroReadSupport.READ_INT96_AS_FIXED, true);
        for (Path part : parts) {
            try (ParquetReader<GenericRecord> reader = AvroParquetReader.<GenericRecord>builder(
                    new LocalInputFile(part), conf).build()) {
                GenericRecord r;
                while ((r = reader.read()) != null) {
                    consumer.accept(r);
                }
            }
        }
    }

    private static long asLong(GenericRecord r, String column) throws IOException {
        Object v = r.get(column);
        if (!(v instanceof Number n)) {
            throw new IOException("column " + column + " is " + v + ", not a number (written by a different "
                    + "version of ackscope?)");
        }
        return n.longValue();
    }

    private static long orZero(GenericRecord r, String column) throws IOException {
        return r.get(column) == null ? 0 : asLong(r, column);
    }

    private static String text(GenericRecord r, String column) {
        Object v = r.get(column);
        return v instanceof Utf8 || v instanceof CharSequence ? v.toString() : null;
    }

    /** A growable array of longs with nearest-rank percentiles once sorted. */
    private static final class LongList {
        private long[] values = new long[64];
        private int size;

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        void sort() {
            Arrays.sort(values, 0, size);
        }

        /** Nearest-rank value at {@code q} (0 = minimum, 1 = maximum); -1 when empty. */
        long rank(double q) {
            if (size == 0) {
                return -1;
            }
            int i = (int) Math.ceil(q * size) - 1;
            return values[Math.max(0, Math.min(size - 1, i))];
        }
    }
}
