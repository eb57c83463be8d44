package io.ackscope.spark.views;

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
public final class ZeekConnLog {

    /** The connections columns read, in this order. */
    public static final List<String> COLUMNS = List.of(Connections.FIRST_TIME.name(), "uid", "client_ip", "client_port",
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
    public static long write(Iterator<Row> rows, Writer out, Instant opened) throws IOException {
        out.write("#separator \\x09\n#set_separator\t,\n#empty_field\t(empty)\n#unset_field\t-\n#path\tconn\n");
        out.write("#open\t" + HEADER_TIME.format(opened) + "\n#fields\t" + FIELDS + "\n#types\t" + TYPES + "\n");
        long n = 0;
        StringBuilder sb = new StringBuilder(256);
        while (rows.hasNext()) {
            Row r = rows.next();
            Instant first = r.getAs(Connections.FIRST_TIME.name());
            long micros = Math.addExact(Math.multiplyExact(first.getEpochSecond(), 1_000_000L), first.getNano() / 1000);
            String clientIp = r.getAs("client_ip");
            String serverIp = r.getAs("server_ip");
            int clientPort = r.<Integer>getAs("client_port");
            int serverPort = r.<Integer>getAs("server_port");
            sb.setLength(0);
            sb.append(seconds(micros)).append('\t')
                    .append(escape(r.getAs("uid")))
                    .append('\t').append(escape(clientIp)).append('\t').append(clientPort)
                    .append('\t').append(escape(serverIp)).append('\t').append(serverPort)
                    .append("\ttcp\t").append(r.<Long>getAs("exchanges") > 0 ? "http" : UNSET)
                    .append('\t').append(seconds(r.<Long>getAs("duration_us")))
                    .append('\t').append(r.<Long>getAs("client_payload_bytes"))
                    .append('\t').append(r.<Long>getAs("server_payload_bytes"))
                    .append('\t').append(escape(r.getAs("conn_state")))
                    .append("\t-\t-\t-\t").append(escape(r.getAs("history")))
                    .append('\t').append(r.<Long>getAs("client_packets")).append("\t-")
                    .append('\t').append(r.<Long>getAs("server_packets")).append("\t-\t-\n");
            out.write(sb.toString());
            n++;
        }
        out.write("#close\t" + HEADER_TIME.format(Instant.now()) + "\n");
        return n;
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
