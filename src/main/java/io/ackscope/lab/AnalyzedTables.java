package io.ackscope.lab;

import io.ackscope.tables.Column;
import io.ackscope.tables.EngineTables.AckDelays;
import io.ackscope.tables.EngineTables.Connections;
import io.ackscope.tables.EngineTables.Exchanges;
import io.ackscope.tables.EngineTables.Stalls;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.TableReader;
import io.ackscope.tables.TableSchema;
import io.ackscope.tcp.AckClass;
import io.ackscope.tcp.Addresses;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of one server endpoint from the Parquet tables that {@code ackscope analyze} wrote (the columns of
 * {@code docs/schema.md}): connections to the endpoint's port from {@code connections}, then their
 * {@code exchanges}, {@code stalls} and the client's {@code ack_delays}, read with the tables package's reader
 * (only the columns named here, by the schemas' {@link Column}s).
 */
final class AnalyzedTables {

    private final Path dir;
    /** stream -> server endpoint ("127.0.0.1:PORT") */
    private final Map<Long, String> endpointOfStream = new HashMap<>();

    /** Reads the {@code connections} table of the analyze output {@code dir}. */
    AnalyzedTables(Path dir) throws IOException {
        this.dir = dir;
        scan(EngineTables.CONNECTIONS, List.of(Connections.STREAM, Connections.SERVER_IP, Connections.SERVER_PORT),
                b -> {
                    long[] stream = values(b, Connections.STREAM);
                    long[] port = values(b, Connections.SERVER_PORT);
                    String[] ip = b.strings(Connections.SERVER_IP);
                    for (int i = 0; i < b.rows; i++) {
                        endpointOfStream.put(stream[i], Addresses.endpointText(ip[i], (int) port[i]));
                    }
                });
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
        scan(EngineTables.EXCHANGES, List.of(Exchanges.STREAM, Exchanges.EXCHANGE_INDEX, Exchanges.STALL_US), b -> {
            long[] stream = values(b, Exchanges.STREAM);
            long[] index = values(b, Exchanges.EXCHANGE_INDEX);
            TableReader.LongColumn stall = b.longs(Exchanges.STALL_US);
            for (int i = 0; i < b.rows; i++) {
                if (server.equals(endpointOfStream.get(stream[i]))) {
                    boolean stalled = orZero(stall, i) > 0;
                    counts[1]++;
                    if (index[i] > 0) {
                        counts[2]++;
                        counts[3] += stalled ? 1 : 0;
                    } else if (stalled) {
                        firstStalled[0]++;
                    }
                }
            }
        });
        LongList stallAcks = new LongList();
        long[] held = new long[3]; // by the server, by the client, ended by a delayed-ACK timer
        scan(EngineTables.STALLS, List.of(Stalls.STREAM, Stalls.ACK_DELAY_US, Stalls.HOLDING_SIDE), b -> {
            long[] stream = values(b, Stalls.STREAM);
            long[] ackDelay = values(b, Stalls.ACK_DELAY_US);
            String[] holding = b.strings(Stalls.HOLDING_SIDE);
            for (int i = 0; i < b.rows; i++) {
                if (server.equals(endpointOfStream.get(stream[i]))) {
                    stallAcks.add(ackDelay[i]);
                    held["SERVER".equals(holding[i]) ? 0 : 1]++;
                    AckClass band = AckClass.delayedBand(ackDelay[i] * 1000);
                    if (band == AckClass.DELAYED_40MS || band == AckClass.DELAYED_200MS) {
                        held[2]++;
                    }
                }
            }
        });
        LongList clientAcks = new LongList();
        scan(EngineTables.ACK_DELAYS, List.of(AckDelays.STREAM, AckDelays.ACKING_SIDE, AckDelays.ACK_DELAY_US),
                b -> {
                    long[] stream = values(b, AckDelays.STREAM);
                    long[] delay = values(b, AckDelays.ACK_DELAY_US);
                    String[] side = b.strings(AckDelays.ACKING_SIDE);
                    for (int i = 0; i < b.rows; i++) {
                        if ("CLIENT".equals(side[i]) && server.equals(endpointOfStream.get(stream[i]))) {
                            clientAcks.add(delay[i]);
                        }
                    }
                });
        stallAcks.sort();
        clientAcks.sort();
        return new StallFigures(counts[0], counts[1], counts[2], counts[3], firstStalled[0], held[0], held[1],
                held[2], stallAcks.rank(0), stallAcks.rank(0.5), stallAcks.rank(1), clientAcks.rank(0.5),
                clientAcks.rank(0.99));
    }

    private void scan(TableSchema table, List<Column> columns, TableReader.BatchConsumer consumer)
            throws IOException {
        if (!TableReader.exists(dir, table)) {
            throw new IOException("ackscope analyze wrote no table " + table.name() + " in " + dir);
        }
        TableReader.scan(dir, table, columns, consumer);
    }

    /** A column the schema declares required: every row has a value. */
    private static long[] values(TableReader.Batch b, Column c) {
        return b.longs(c).values;
    }

    private static long orZero(TableReader.LongColumn c, int row) {
        return c.present[row] ? c.values[row] : 0;
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
