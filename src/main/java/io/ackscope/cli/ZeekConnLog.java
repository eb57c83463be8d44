package io.ackscope.cli;

import io.ackscope.json.JsonWriter;
import io.ackscope.tables.EngineTables.Connections;
import org.apache.spark.sql.Row;

import java.io.IOException;
import java.io.Writer;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
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
 * {@code service} is {@code http} when an HTTP request or response was seen on the connection, else unset;
 * {@code missed_bytes} is 0 when neither side's sequence space has a gap (no segment missing from the capture) and
 * unset otherwise, because the tables count gaps, not their bytes. {@code orig_bytes}/{@code resp_bytes} are the
 * TCP payload bytes each side sent, retransmitted bytes included (Zeek takes them from sequence numbers, so a
 * connection with retransmissions shows more here than in Zeek's log); {@code local_orig}, {@code local_resp},
 * {@code orig_ip_bytes}, {@code resp_ip_bytes} and {@code tunnel_parents} are unset: the tables do not know them.
 * The last column, {@code source}, is not Zeek's: the capture point of the connection, for archives of several;
 * Zeek's readers select columns by name and pass it by.
 */
final class ZeekConnLog {

    /** The connections columns read, in this order, and {@link #HTTP_SEEN} computed from exchanges. */
    static final List<String> COLUMNS = List.of(Connections.FIRST_TIME.name(), "uid", "client_ip", "client_port",
            "server_ip", "server_port", "duration_us", "client_payload_bytes", "server_payload_bytes",
            "conn_state", "history", "client_packets", "server_packets", "client_lost_segments",
            "server_lost_segments", "source");
    /** Boolean column the export adds: an exchange of the connection had an HTTP method or status. */
    static final String HTTP_SEEN = "http_seen";

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
    enum Format { TSV, JSON }

    private static final DateTimeFormatter HEADER_TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd-HH-mm-ss").withZone(ZoneOffset.UTC);
    private static final String UNSET = "-";

    private ZeekConnLog() {
    }

    /**
     * Writes the log in {@code format}: for TSV the header, the rows and {@code #close}; for JSON one object per
     * row. Rows carry {@link #COLUMNS} and {@link #HTTP_SEEN}. Returns the rows written.
     */
    static long write(Iterator<Row> rows, Writer out, Instant opened, Format format) throws IOException {
        if (format == Format.TSV) {
            out.write("#separator \\x09\n#set_separator\t,\n#empty_field\t(empty)\n#unset_field\t-\n#path\tconn\n");
            out.write("#open\t" + HEADER_TIME.format(opened) + "\n#fields\t" + FIELDS + "\n#types\t" + TYPES + "\n");
        }
        long n = 0;
        StringBuilder sb = new StringBuilder(256);
        Object[] values = new Object[FIELD_NAMES.size()];
        while (rows.hasNext()) {
            record(rows.next(), values);
            sb.setLength(0);
            if (format == Format.TSV) {
                tsv(values, sb);
            } else {
                json(values, sb);
            }
            out.write(sb.toString());
            n++;
        }
        if (format == Format.TSV) {
            out.write("#close\t" + HEADER_TIME.format(Instant.now()) + "\n");
        }
        return n;
    }

    /**
     * One connection's values, by {@link #FIELD_NAMES} position: Long microseconds for time and interval, Long for
     * counts and ports, String for the rest, null for unset.
     */
    private static void record(Row r, Object[] v) {
        Instant first = r.getAs(Connections.FIRST_TIME.name());
        long lost = r.<Long>getAs("client_lost_segments") + r.<Long>getAs("server_lost_segments");
        java.util.Arrays.fill(v, null);
        v[0] = Math.addExact(Math.multiplyExact(first.getEpochSecond(), 1_000_000L), first.getNano() / 1000);
        v[1] = r.getAs("uid");
        v[2] = r.getAs("client_ip");
        v[3] = (long) r.<Integer>getAs("client_port");
        v[4] = r.getAs("server_ip");
        v[5] = (long) r.<Integer>getAs("server_port");
        v[6] = "tcp";
        v[7] = Boolean.TRUE.equals(r.getAs(HTTP_SEEN)) ? "http" : null;
        v[8] = r.<Long>getAs("duration_us");
        v[9] = r.<Long>getAs("client_payload_bytes");
        v[10] = r.<Long>getAs("server_payload_bytes");
        v[11] = r.getAs("conn_state");
        v[14] = lost == 0 ? Long.valueOf(0) : null;
        v[15] = r.getAs("history");
        v[16] = r.<Long>getAs("client_packets");
        v[18] = r.<Long>getAs("server_packets");
        v[21] = r.getAs("source");
    }

    private static boolean isTime(int field) {
        return TYPE_NAMES.get(field).equals("time") || TYPE_NAMES.get(field).equals("interval");
    }

    private static void tsv(Object[] v, StringBuilder sb) {
        for (int i = 0; i < v.length; i++) {
            if (i > 0) {
                sb.append('\t');
            }
            if (v[i] == null) {
                sb.append(UNSET);
            } else if (v[i] instanceof Long l) {
                sb.append(isTime(i) ? seconds(l) : Long.toString(l));
            } else {
                sb.append(escape((String) v[i]));
            }
        }
        sb.append('\n');
    }

    /** As Zeek's JSON writer: unset fields left out, times as epoch seconds (a number), strings JSON-escaped. */
    private static void json(Object[] v, StringBuilder sb) {
        JsonWriter w = new JsonWriter(sb).beginObject(JsonWriter.Layout.COMPACT);
        for (int i = 0; i < v.length; i++) {
            if (v[i] == null) {
                continue;
            }
            w.name(FIELD_NAMES.get(i));
            if (v[i] instanceof Long l) {
                if (isTime(i)) {
                    w.value(new java.math.BigDecimal(java.math.BigInteger.valueOf(l), 6));
                } else {
                    w.value(l);
                }
            } else {
                w.value((String) v[i]);
            }
        }
        w.end();
        sb.append('\n');
    }

    /** Microseconds as Zeek prints time and interval values: seconds with six decimals. */
    static String seconds(long micros) {
        return String.format(Locale.ROOT, "%d.%06d", Math.floorDiv(micros, 1_000_000L),
                Math.floorMod(micros, 1_000_000L));
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
