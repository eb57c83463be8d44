package io.ackscope.cli;

import io.ackscope.tables.Column;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.EngineTables.Connections;
import io.ackscope.tables.TableReader;
import org.apache.spark.sql.Row;

import java.io.IOException;
import java.io.Writer;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * The {@code connections} table as Zeek's {@code conn.log} in its ASCII (TSV) form: the header lines Zeek writes
 * ({@code #separator}, {@code #set_separator}, {@code #empty_field}, {@code #unset_field}, {@code #path},
 * {@code #open}, {@code #fields}, {@code #types}), one line per connection, and {@code #close}; so zeek-cut,
 * Brim/Zui and Zeek's own log readers take it.
 *
 * <p>Mapping: {@code uid} is the table's {@code uid} column (stable, unlike Zeek's: {@code tcp/ConnectionUid}); {@code orig_bytes}/{@code resp_bytes}
 * are the TCP payload bytes each side sent (retransmitted bytes included, where Zeek counts sequence space);
 * {@code service} is {@code http} when request/response exchanges were found, else unset;
 * {@code local_orig}, {@code local_resp}, {@code missed_bytes}, {@code orig_ip_bytes}, {@code resp_ip_bytes} and
 * {@code tunnel_parents} are unset ({@code -}): the tables do not know them.
 */
final class ZeekConnLog {

    /** The connections columns read, in this order. */
    static final List<String> COLUMNS = List.of(Connections.FIRST_TIME.name(), "uid", "client_ip", "client_port",
            "server_ip", "server_port", "duration_us", "exchanges", "client_payload_bytes", "server_payload_bytes",
            "conn_state", "history", "client_packets", "server_packets");

    static final String FIELDS = String.join("\t", "ts", "uid", "id.orig_h", "id.orig_p", "id.resp_h", "id.resp_p",
            "proto", "service", "duration", "orig_bytes", "resp_bytes", "conn_state", "local_orig", "local_resp",
            "missed_bytes", "history", "orig_pkts", "orig_ip_bytes", "resp_pkts", "resp_ip_bytes", "tunnel_parents");
    static final String TYPES = String.join("\t", "time", "string", "addr", "port", "addr", "port", "enum",
            "string", "interval", "count", "count", "string", "bool", "bool", "count", "string", "count", "count",
            "count", "count", "set[string]");

    private static final DateTimeFormatter HEADER_TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd-HH-mm-ss").withZone(ZoneOffset.UTC);
    private static final String UNSET = "-";

    private ZeekConnLog() {
    }

    /** Writes the log: header, the rows (in {@link #COLUMNS} order), {@code #close}; returns the rows written. */
    static long write(Iterator<Row> rows, Writer out, Instant opened) throws IOException {
        header(out, opened);
        long n = 0;
        StringBuilder sb = new StringBuilder(256);
        while (rows.hasNext()) {
            Row r = rows.next();
            Instant first = r.getAs(Connections.FIRST_TIME.name());
            long micros = Math.addExact(Math.multiplyExact(first.getEpochSecond(), 1_000_000L), first.getNano() / 1000);
            line(sb, micros, r.getAs("uid"), r.getAs("client_ip"), r.<Integer>getAs("client_port"),
                    r.getAs("server_ip"), r.<Integer>getAs("server_port"), r.<Long>getAs("exchanges"),
                    r.<Long>getAs("duration_us"), r.<Long>getAs("client_payload_bytes"),
                    r.<Long>getAs("server_payload_bytes"), r.getAs("conn_state"), r.getAs("history"),
                    r.<Long>getAs("client_packets"), r.<Long>getAs("server_packets"));
            out.write(sb.toString());
            n++;
        }
        close(out);
        return n;
    }

    /**
     * Writes the log of the {@code connections} tables of the local outputs {@code outputs} (checked complete by
     * the caller) as {@link #write(Iterator, Writer, Instant)} does from Spark's rows, in the same order (first
     * instant, source, client address and port; strings compared by their UTF-8 bytes, as Spark's sort does), read
     * with {@link TableReader}: no Spark session, which took most of the command's time.
     *
     * @throws IOException also when a table lacks a column (an output older than {@code first_time})
     */
    static long writeLocal(List<java.nio.file.Path> outputs, Writer out, Instant opened) throws IOException {
        List<Column> columns = List.of(Connections.FIRST_TIME, SOURCE, Connections.UID, Connections.CLIENT_IP,
                Connections.CLIENT_PORT, Connections.SERVER_IP, Connections.SERVER_PORT, DURATION, EXCHANGES,
                Connections.CLIENT_PAYLOAD_BYTES, Connections.SERVER_PAYLOAD_BYTES, Connections.CONN_STATE,
                Connections.HISTORY, Connections.CLIENT_PACKETS, Connections.SERVER_PACKETS);
        List<TableReader.Batch> batches = new ArrayList<>();
        for (java.nio.file.Path dir : outputs) {
            if (TableReader.exists(dir, EngineTables.CONNECTIONS)) {
                TableReader.scan(dir, EngineTables.CONNECTIONS, columns.subList(1, columns.size()),
                        List.of(Connections.FIRST_TIME), b -> {
                            if (!b.has(Connections.FIRST_TIME)) {
                                throw new NoFirstTime();
                            }
                            batches.add(b);
                        });
            }
        }
        int total = 0;
        for (TableReader.Batch b : batches) {
            total = Math.addExact(total, b.rows);
        }
        // the sort keys of every connection, flat, and its (batch, row) packed in one long
        long[] at = new long[total];
        long[] first = new long[total];
        long[] clientPort = new long[total];
        String[] source = new String[total];
        String[] clientIp = new String[total];
        int k = 0;
        for (int b = 0; b < batches.size(); b++) {
            TableReader.Batch batch = batches.get(b);
            for (int r = 0; r < batch.rows; r++, k++) {
                at[k] = (long) b << 32 | r;
                first[k] = batch.longs(Connections.FIRST_TIME).values[r];
                clientPort[k] = batch.longs(Connections.CLIENT_PORT).values[r];
                source[k] = batch.strings(SOURCE)[r];
                clientIp[k] = batch.strings(Connections.CLIENT_IP)[r];
            }
        }
        Integer[] sorted = new Integer[total];
        for (int i = 0; i < total; i++) {
            sorted[i] = i;
        }
        java.util.Arrays.sort(sorted, java.util.Comparator.<Integer>comparingLong(i -> first[i])
                .thenComparing((i, j) -> utf8Compare(source[i], source[j]))
                .thenComparing((i, j) -> utf8Compare(clientIp[i], clientIp[j]))
                .thenComparingLong(i -> clientPort[i]));
        header(out, opened);
        StringBuilder sb = new StringBuilder(256);
        for (Integer i : sorted) {
            TableReader.Batch b = batches.get((int) (at[i] >>> 32));
            int r = (int) at[i];
            line(sb, b.longs(Connections.FIRST_TIME).values[r], b.strings(Connections.UID)[r],
                    b.strings(Connections.CLIENT_IP)[r], b.longs(Connections.CLIENT_PORT).values[r],
                    b.strings(Connections.SERVER_IP)[r], b.longs(Connections.SERVER_PORT).values[r],
                    b.longs(EXCHANGES).values[r], b.longs(DURATION).values[r],
                    b.longs(Connections.CLIENT_PAYLOAD_BYTES).values[r],
                    b.longs(Connections.SERVER_PAYLOAD_BYTES).values[r], b.strings(Connections.CONN_STATE)[r],
                    b.strings(Connections.HISTORY)[r], b.longs(Connections.CLIENT_PACKETS).values[r],
                    b.longs(Connections.SERVER_PACKETS).values[r]);
            out.write(sb.toString());
        }
        close(out);
        return total;
    }

    /** A connections table without {@code first_time} (written before schema version 3). */
    static final class NoFirstTime extends IOException {
        NoFirstTime() {
            super("connections has no first_time column");
        }
    }

    private static final Column SOURCE = EngineTables.CONNECTIONS.column("source");
    private static final Column DURATION = EngineTables.CONNECTIONS.column("duration_us");
    private static final Column EXCHANGES = EngineTables.CONNECTIONS.column("exchanges");

    /** Strings in the order of their UTF-8 bytes, unsigned (Spark's order of strings); null first. */
    private static int utf8Compare(String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        return java.util.Arrays.compareUnsigned(a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    static void header(Writer out, Instant opened) throws IOException {
        out.write("#separator \\x09\n#set_separator\t,\n#empty_field\t(empty)\n#unset_field\t-\n#path\tconn\n");
        out.write("#open\t" + HEADER_TIME.format(opened) + "\n#fields\t" + FIELDS + "\n#types\t" + TYPES + "\n");
    }

    static void close(Writer out) throws IOException {
        out.write("#close\t" + HEADER_TIME.format(Instant.now()) + "\n");
    }

    /** One connection's line, into {@code sb} (emptied first). */
    static void line(StringBuilder sb, long firstMicros, String uid, String clientIp, long clientPort,
                     String serverIp, long serverPort, long exchanges, long durationUs, long clientBytes,
                     long serverBytes, String connState, String history, long clientPackets, long serverPackets) {
        sb.setLength(0);
        seconds(sb, firstMicros).append('\t')
                .append(escape(uid))
                .append('\t').append(escape(clientIp)).append('\t').append(clientPort)
                .append('\t').append(escape(serverIp)).append('\t').append(serverPort)
                .append("\ttcp\t").append(exchanges > 0 ? "http" : UNSET)
                .append('\t');
        seconds(sb, durationUs)
                .append('\t').append(clientBytes)
                .append('\t').append(serverBytes)
                .append('\t').append(escape(connState))
                .append("\t-\t-\t-\t").append(escape(history))
                .append('\t').append(clientPackets).append("\t-")
                .append('\t').append(serverPackets).append("\t-\t-\n");
    }

    /** Microseconds as Zeek prints time and interval values (seconds with six decimals), appended to {@code sb}. */
    static StringBuilder seconds(StringBuilder sb, long micros) {
        long frac = Math.floorMod(micros, 1_000_000L);
        sb.append(Math.floorDiv(micros, 1_000_000L)).append('.');
        for (long d = 100_000L; d > 1 && frac < d; d /= 10) {
            sb.append('0');
        }
        return sb.append(frac);
    }

    /**
     * A string value as Zeek's ASCII writer escapes it: backslash, the separator (tab), non-printable and non-ASCII
     * characters as {@code \xHH} of their UTF-8 bytes; an empty string is {@code (empty)}, a lone {@code -} is
     * escaped so it does not read as unset.
     */
    static String escape(String s) {
        if (s == null) {
            return UNSET;
        }
        if (s.isEmpty()) {
            return "(empty)";
        }
        if (s.equals(UNSET)) {
            return "\\x2d";
        }
        StringBuilder sb = new StringBuilder(s.length());
        for (byte b : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c < 0x20 || c >= 0x7f || c == '\\') {
                sb.append(String.format(Locale.ROOT, "\\x%02x", c));
            } else {
                sb.append((char) c);
            }
        }
        return sb.toString();
    }
}
