package io.ackscope.spark.views;

import io.ackscope.json.Json;
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
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * The {@code connections} table as Zeek's {@code conn.log}, in its ASCII (TSV) form (the header lines Zeek writes:
 * {@code #separator}, {@code #set_separator}, {@code #empty_field}, {@code #unset_field}, {@code #path},
 * {@code #open}, {@code #fields}, {@code #types}; one line per connection; {@code #close}) or its JSON form (one
 * object per line, {@code ts} as epoch seconds, field names with their dots, unset fields left out), so zeek-cut,
 * Brim/Zui, Zeek's log readers and JSON tools take it.
 *
 * <p>Mapping: {@code uid} is the table's {@code uid} column (stable, unlike Zeek's: {@code tcp/ConnectionUid});
 * {@code service} is {@code http} when an HTTP request or response was seen on the connection, else unset.
 * {@code orig_bytes}/{@code resp_bytes} are {@code client_seq_bytes}/{@code server_seq_bytes}: the sequence space each
 * side used as Zeek's {@code TCP_Endpoint::Size} counts it (furthest sequence number reached, by a segment or the
 * peer's ACK, minus the ISN, without the SYN and FIN octets; retransmissions once; {@code tcp/SeqSpan}).
 * {@code orig_ip_bytes}/{@code resp_ip_bytes} are {@code client_ip_bytes}/{@code server_ip_bytes}, the sum of the IP
 * lengths of each side's packets. {@code missed_bytes} is {@code client_missed_bytes + server_missed_bytes}: the
 * bytes of sequence space no captured segment carried (Zeek's content gaps). An output written before those columns
 * existed leaves these fields unset. {@code local_orig}, {@code local_resp} and {@code tunnel_parents} are unset:
 * the tables do not know them.
 * The last column, {@code source}, is not Zeek's: the capture point of the connection, for archives of several;
 * Zeek's readers select columns by name and pass it by.
 */
public final class ZeekConnLog {

    /** The connections columns read, in this order, and {@link #HTTP_SEEN} computed from exchanges. */
    public static final List<String> COLUMNS = List.of(Connections.FIRST_TIME.name(), "uid", "client_ip", "client_port",
            "server_ip", "server_port", "duration_us", "conn_state", "history", "client_packets", "server_packets",
            "source");
    /**
     * The per-side byte columns read, in this order; an output written before they existed lacks them, and its log
     * leaves the fields they give unset.
     */
    public static final List<Column> SIDE_BYTES = List.of(Connections.CLIENT_SEQ_BYTES, Connections.SERVER_SEQ_BYTES,
            Connections.CLIENT_IP_BYTES, Connections.SERVER_IP_BYTES, Connections.CLIENT_MISSED_BYTES,
            Connections.SERVER_MISSED_BYTES);
    /** Boolean column the export adds: an exchange of the connection had an HTTP method or status. */
    public static final String HTTP_SEEN = "http_seen";

    static final List<String> FIELD_NAMES = List.of("ts", "uid", "id.orig_h", "id.orig_p", "id.resp_h", "id.resp_p",
            "proto", "service", "duration", "orig_bytes", "resp_bytes", "conn_state", "local_orig", "local_resp",
            "missed_bytes", "history", "orig_pkts", "orig_ip_bytes", "resp_pkts", "resp_ip_bytes", "tunnel_parents",
            "source");
    static final List<String> TYPE_NAMES = List.of("time", "string", "addr", "port", "addr", "port", "enum",
            "string", "interval", "count", "count", "string", "bool", "bool", "count", "string", "count", "count",
            "count", "count", "set[string]", "string");
    static final String FIELDS = String.join("\t", FIELD_NAMES);
    static final String TYPES = String.join("\t", TYPE_NAMES);

    /** The log's two forms. */
    public enum Format { TSV, JSON }

    private static final DateTimeFormatter HEADER_TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd-HH-mm-ss").withZone(ZoneOffset.UTC);
    private static final String UNSET = "-";

    private ZeekConnLog() {
    }

    /**
     * Writes the log in {@code format}: for TSV the header, the rows and {@code #close}; for JSON one object per
     * row. Rows carry {@link #COLUMNS} and {@link #HTTP_SEEN}. Returns the rows written.
     */
    public static long write(Iterator<Row> rows, Writer out, Instant opened, Format format) throws IOException {
        header(out, opened, format);
        long n = 0;
        StringBuilder sb = new StringBuilder(256);
        Object[] values = new Object[FIELD_NAMES.size()];
        while (rows.hasNext()) {
            record(rows.next(), values);
            line(values, sb, format);
            out.write(sb.toString());
            n++;
        }
        close(out, format);
        return n;
    }

    /**
     * Writes the log of the {@code connections} tables of the local outputs {@code outputs} (checked complete by
     * the caller) as {@link #write} does from Spark's rows, in the same order (first instant, source, client
     * address and port; strings compared by their UTF-8 bytes, as Spark's sort does), read with
     * {@link TableReader}: no Spark session, which took most of the command's time. Only the part files
     * {@code read} accepts are read (those the outputs' manifests list).
     *
     * @throws IOException also when a table lacks a column (an output older than {@code first_time})
     */
    public static long writeLocal(List<java.nio.file.Path> outputs, java.util.function.Predicate<java.nio.file.Path> read,
                                  Writer out, Instant opened, Format format) throws IOException {
        List<Column> columns = List.of(Connections.FIRST_TIME, SOURCE, Connections.STREAM, Connections.UID,
                Connections.CLIENT_IP, Connections.CLIENT_PORT, Connections.SERVER_IP, Connections.SERVER_PORT,
                DURATION, Connections.CONN_STATE, Connections.HISTORY, Connections.CLIENT_PACKETS,
                Connections.SERVER_PACKETS);
        List<Column> optional = new ArrayList<>(SIDE_BYTES);
        optional.add(0, Connections.FIRST_TIME);
        List<TableReader.Batch> batches = new ArrayList<>();
        java.util.Set<String> http = new HashSet<>();
        for (java.nio.file.Path dir : outputs) {
            if (TableReader.exists(dir, EngineTables.CONNECTIONS)) {
                TableReader.scan(dir, EngineTables.CONNECTIONS, read, columns.subList(1, columns.size()),
                        optional, b -> {
                            if (!b.has(Connections.FIRST_TIME)) {
                                throw new NoFirstTime();
                            }
                            batches.add(b);
                        });
            }
            if (TableReader.exists(dir, EngineTables.EXCHANGES)) {
                TableReader.scan(dir, EngineTables.EXCHANGES, read, List.of(X_SOURCE, EngineTables.Exchanges.STREAM,
                        HTTP_METHOD, HTTP_STATUS), List.of(), b -> {
                            String[] src = b.strings(X_SOURCE);
                            String[] method = b.strings(HTTP_METHOD);
                            TableReader.LongColumn status = b.longs(HTTP_STATUS);
                            long[] stream = b.longs(EngineTables.Exchanges.STREAM).values;
                            for (int r = 0; r < b.rows; r++) {
                                if (method[r] != null || status.present[r]) {
                                    http.add(src[r] + '\n' + stream[r]);
                                }
                            }
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
        header(out, opened, format);
        StringBuilder sb = new StringBuilder(256);
        Object[] v = new Object[FIELD_NAMES.size()];
        List<BatchColumns> cols = batches.stream().map(BatchColumns::new).toList();
        for (Integer i : sorted) {
            BatchColumns b = cols.get((int) (at[i] >>> 32));
            int r = (int) at[i];
            String src = b.source[r];
            Long[] bytes = new Long[SIDE_BYTES.size()];
            for (int c = 0; c < bytes.length; c++) {
                bytes[c] = b.sideBytes[c] == null ? null : b.sideBytes[c][r];
            }
            values(v, b.first[r], b.uid[r], b.clientIp[r], b.clientPort[r], b.serverIp[r], b.serverPort[r],
                    http.contains(src + '\n' + b.stream[r]), b.duration[r], b.connState[r], b.history[r],
                    b.clientPackets[r], b.serverPackets[r], bytes, src);
            line(v, sb, format);
            out.write(sb.toString());
        }
        close(out, format);
        return total;
    }

    /** The columns of one batch of connections that a log line takes, looked up once per batch, not per row. */
    private static final class BatchColumns {
        final long[] first, clientPort, serverPort, stream, duration, clientPackets, serverPackets;
        final String[] source, uid, clientIp, serverIp, connState, history;
        /** Per {@link #SIDE_BYTES} column, its values, or null where the batch lacks it (an older output). */
        final long[][] sideBytes = new long[SIDE_BYTES.size()][];

        BatchColumns(TableReader.Batch b) {
            first = b.longs(Connections.FIRST_TIME).values;
            clientPort = b.longs(Connections.CLIENT_PORT).values;
            serverPort = b.longs(Connections.SERVER_PORT).values;
            stream = b.longs(Connections.STREAM).values;
            duration = b.longs(DURATION).values;
            clientPackets = b.longs(Connections.CLIENT_PACKETS).values;
            serverPackets = b.longs(Connections.SERVER_PACKETS).values;
            source = b.strings(SOURCE);
            uid = b.strings(Connections.UID);
            clientIp = b.strings(Connections.CLIENT_IP);
            serverIp = b.strings(Connections.SERVER_IP);
            connState = b.strings(Connections.CONN_STATE);
            history = b.strings(Connections.HISTORY);
            for (int c = 0; c < sideBytes.length; c++) {
                sideBytes[c] = b.has(SIDE_BYTES.get(c)) ? b.longs(SIDE_BYTES.get(c)).values : null;
            }
        }
    }

    /** A connections table without {@code first_time} (written before schema version 3). */
    public static final class NoFirstTime extends IOException {
        NoFirstTime() {
            super("connections has no first_time column");
        }
    }

    private static final Column SOURCE = EngineTables.CONNECTIONS.column("source");
    private static final Column DURATION = EngineTables.CONNECTIONS.column("duration_us");
    private static final Column X_SOURCE = EngineTables.EXCHANGES.column("source");
    private static final Column HTTP_METHOD = EngineTables.EXCHANGES.column("http_method");
    private static final Column HTTP_STATUS = EngineTables.EXCHANGES.column("http_status");

    /** Strings in the order of their UTF-8 bytes, unsigned (Spark's order of strings); null first. */
    private static int utf8Compare(String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        return java.util.Arrays.compareUnsigned(a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static void header(Writer out, Instant opened, Format format) throws IOException {
        if (format == Format.TSV) {
            out.write("#separator \\x09\n#set_separator\t,\n#empty_field\t(empty)\n#unset_field\t-\n#path\tconn\n");
            out.write("#open\t" + HEADER_TIME.format(opened) + "\n#fields\t" + FIELDS + "\n#types\t" + TYPES + "\n");
        }
    }

    private static void close(Writer out, Format format) throws IOException {
        if (format == Format.TSV) {
            out.write("#close\t" + HEADER_TIME.format(Instant.now()) + "\n");
        }
    }

    /** One connection's line in {@code format}, into {@code sb} (emptied first). */
    private static void line(Object[] values, StringBuilder sb, Format format) {
        sb.setLength(0);
        if (format == Format.TSV) {
            tsv(values, sb);
        } else {
            json(values, sb);
        }
    }

    /**
     * One connection's values, by {@link #FIELD_NAMES} position: Long microseconds for time and interval, Long for
     * counts and ports, String for the rest, null for unset. {@code r} carries {@link #COLUMNS}, {@link #SIDE_BYTES}
     * (null in an output written before them) and {@link #HTTP_SEEN}.
     */
    private static void record(Row r, Object[] v) {
        Instant first = r.getAs(Connections.FIRST_TIME.name());
        Long[] bytes = new Long[SIDE_BYTES.size()];
        for (int c = 0; c < bytes.length; c++) {
            bytes[c] = r.getAs(SIDE_BYTES.get(c).name());
        }
        values(v, Math.addExact(Math.multiplyExact(first.getEpochSecond(), 1_000_000L), first.getNano() / 1000),
                r.getAs("uid"), r.getAs("client_ip"), r.<Integer>getAs("client_port"), r.getAs("server_ip"),
                r.<Integer>getAs("server_port"), Boolean.TRUE.equals(r.getAs(HTTP_SEEN)), r.<Long>getAs("duration_us"),
                r.getAs("conn_state"), r.getAs("history"), r.<Long>getAs("client_packets"),
                r.<Long>getAs("server_packets"), bytes, r.getAs("source"));
    }

    /**
     * One connection's values into {@code v}, by {@link #FIELD_NAMES} position (see {@link #record});
     * {@code sideBytes} holds the {@link #SIDE_BYTES} columns' values, null where the output lacks them.
     */
    private static void values(Object[] v, long firstMicros, String uid, String clientIp, long clientPort,
                               String serverIp, long serverPort, boolean httpSeen, long durationUs, String connState,
                               String history, long clientPackets, long serverPackets, Long[] sideBytes,
                               String source) {
        java.util.Arrays.fill(v, null);
        v[0] = firstMicros;
        v[1] = uid;
        v[2] = clientIp;
        v[3] = clientPort;
        v[4] = serverIp;
        v[5] = serverPort;
        v[6] = "tcp";
        v[7] = httpSeen ? "http" : null;
        v[8] = durationUs;
        v[9] = sideBytes[0];
        v[10] = sideBytes[1];
        v[11] = connState;
        v[14] = sideBytes[4] == null || sideBytes[5] == null ? null : sideBytes[4] + sideBytes[5];
        v[15] = history;
        v[16] = clientPackets;
        v[17] = sideBytes[2];
        v[18] = serverPackets;
        v[19] = sideBytes[3];
        v[21] = source;
    }

    private static boolean isTime(int field) {
        return TIME_FIELD[field];
    }

    /** Whether each field, by {@link #FIELD_NAMES} position, is a time or an interval (seconds in the log). */
    private static final boolean[] TIME_FIELD = new boolean[TYPE_NAMES.size()];

    static {
        for (int i = 0; i < TIME_FIELD.length; i++) {
            TIME_FIELD[i] = TYPE_NAMES.get(i).equals("time") || TYPE_NAMES.get(i).equals("interval");
        }
    }

    private static void tsv(Object[] v, StringBuilder sb) {
        for (int i = 0; i < v.length; i++) {
            if (i > 0) {
                sb.append('\t');
            }
            if (v[i] == null) {
                sb.append(UNSET);
            } else if (v[i] instanceof Long l) {
                if (isTime(i)) {
                    appendSeconds(sb, l);
                } else {
                    sb.append((long) l);
                }
            } else {
                sb.append(escape((String) v[i]));
            }
        }
        sb.append('\n');
    }

    /** As Zeek's JSON writer: unset fields left out, times as epoch seconds (a number), strings JSON-escaped. */
    private static void json(Object[] v, StringBuilder sb) {
        sb.append(Json.string(w -> {
            w.writeStartObject();
            for (int i = 0; i < v.length; i++) {
                if (v[i] == null) {
                    continue;
                }
                w.writeFieldName(FIELD_NAMES.get(i));
                if (v[i] instanceof Long l) {
                    if (isTime(i)) {
                        Json.number(w, new java.math.BigDecimal(java.math.BigInteger.valueOf(l), 6));
                    } else {
                        w.writeNumber(l);
                    }
                } else {
                    w.writeString((String) v[i]);
                }
            }
            w.writeEndObject();
        }));
        sb.append('\n');
    }

    /** Microseconds as Zeek prints time and interval values: seconds with six decimals. */
    static String seconds(long micros) {
        StringBuilder sb = new StringBuilder(24);
        appendSeconds(sb, micros);
        return sb.toString();
    }

    /** {@link #seconds} into {@code sb} (a log line formats one or two per connection: no {@code Formatter}). */
    static void appendSeconds(StringBuilder sb, long micros) {
        long fraction = Math.floorMod(micros, 1_000_000L);
        sb.append(Math.floorDiv(micros, 1_000_000L)).append('.');
        for (long d = 100_000; d > fraction && d > 1; d /= 10) {
            sb.append('0');
        }
        sb.append(fraction);
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
