package io.ackscope.spark;

import io.ackscope.spark.commit.TableFiles;
import io.ackscope.tables.CaptureFilesTable;
import io.ackscope.tables.Column;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.FindingsTable;
import io.ackscope.tables.ParquetTableWriter;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.TableSchema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * An {@code analyze} output directory made up without captures or Spark: the real table schemas and Parquet
 * writer, filled with a synthetic workload of a chosen number of connections (for the report's size test). The
 * workload: 40 server endpoints of very different popularity over one hour; four requests per connection; 2% of
 * connections with Nagle × delayed-ACK stalls on their later requests; a two-minute incident in which one endpoint
 * answers in ~300 ms; a few retransmission timeouts; a thousand capture files, three of them damaged.
 */
public final class SyntheticTables {
    private SyntheticTables() {
    }

    public static final long START_MICROS = 1_800_000_000_000_000L;
    public static final long HOUR_MICROS = 3_600_000_000L;
    public static final int FILES = 1000, ENDPOINTS = 40, REQUESTS_PER_CONNECTION = 4;

    /** A reused row of one table, set by column name; required columns not set get a zero value. */
    private static final class Row implements AutoCloseable {
        final TableSchema schema;
        final RowBuffer buf;
        final Map<String, Integer> ordinals = new HashMap<>();
        final ParquetTableWriter writer;

        Row(TableSchema schema, java.nio.file.Path dir, Configuration conf) throws IOException {
            this.schema = schema;
            this.buf = new RowBuffer(schema);
            for (int i = 0; i < schema.columns().size(); i++) {
                ordinals.put(schema.column(i).name(), i);
            }
            Files.createDirectories(dir.resolve(schema.name()));
            writer = TableFiles.writer(schema, new Path(dir.resolve(schema.name())
                    .resolve("part-00000.snappy.parquet").toUri()), conf);
        }

        Row start() {
            buf.clear();
            for (int i = 0; i < schema.columns().size(); i++) {
                Column c = schema.column(i);
                if (c.nullable()) {
                    continue;
                }
                switch (c.type()) {
                    case BOOLEAN -> buf.setBoolean(i, false);
                    case INT -> buf.setInt(i, 0);
                    case LONG -> buf.setLong(i, 0);
                    case DOUBLE -> buf.setDouble(i, 0);
                    case STRING -> buf.setString(i, "");
                    case TIMESTAMP -> buf.setTimestampNanos(i, 0);
                    case INT_LIST -> buf.setIntList(i, new int[0]);
                    case LONG_LIST -> buf.setLongList(i, new long[0]);
                    case STRING_LIST -> buf.setStringList(i, List.of());
                    case STRING_LONG_MAP -> buf.setStringLongMap(i, Map.of());
                    default -> throw new IllegalArgumentException(c.name());
                }
            }
            return this;
        }

        private int at(String name) {
            Integer i = ordinals.get(name);
            if (i == null) {
                throw new IllegalArgumentException(schema.name() + " has no column " + name);
            }
            return i;
        }

        Row l(String name, long v) {
            buf.setLong(at(name), v);
            return this;
        }

        Row i(String name, int v) {
            buf.setInt(at(name), v);
            return this;
        }

        Row s(String name, String v) {
            buf.setString(at(name), v);
            return this;
        }

        Row t(String name, long micros) {
            buf.setTimestampNanos(at(name), micros * 1000);
            return this;
        }

        Row b(String name, boolean v) {
            buf.setBoolean(at(name), v);
            return this;
        }

        void write() throws IOException {
            writer.write(buf);
        }

        @Override
        public void close() throws IOException {
            writer.close();
        }
    }

    /** Writes the tables for {@code connections} connections under {@code dir}, with the {@code _SUCCESS} marker. */
    public static void write(java.nio.file.Path dir, int connections) throws IOException {
        Configuration conf = new Configuration();
        Random rnd = new Random(20261202);
        Files.createDirectories(dir);
        try (Row files = new Row(CaptureFilesTable.TABLE, dir, conf)) {
            for (int f = 0; f < FILES; f++) {
                long first = START_MICROS + f * HOUR_MICROS / FILES;
                files.start().s("file", String.format("file:/archive/capture-%04d.pcapng", f)).i("file_index", f)
                        .l("file_bytes", 1_000_000L).s("format", "pcapng").s("read_mode", "whole")
                        .l("frames", 20_000).l("frames_ok", 20_000).l("tcp_frames", 19_000)
                        .l("skipped_frames", 1_000).t("first_time", first)
                        .t("last_time", first + HOUR_MICROS / FILES).b("complete", true);
                files.buf.setIntList(files.at("link_types"), new int[]{1});
                files.buf.setStringLongMap(files.at("skipped_by_reason"), Map.of("UDP", 900L, "ICMP", 100L));
                if (f % 400 == 7) {
                    files.l("error_offset", 123_456L + f).s("error", "pcapng block length 7 below the minimum 12");
                }
                files.write();
            }
        }
        try (Row c = new Row(EngineTables.CONNECTIONS, dir, conf);
             Row x = new Row(EngineTables.EXCHANGES, dir, conf);
             Row r = new Row(EngineTables.RTT_SAMPLES, dir, conf);
             Row a = new Row(EngineTables.ACK_DELAYS, dir, conf);
             Row s = new Row(EngineTables.STALLS, dir, conf);
             Row e = new Row(EngineTables.LATENCY_EVENTS, dir, conf);
             Row f = new Row(FindingsTable.TABLE, dir, conf)) {
            // per endpoint (ip:port): stall µs, response µs, stalled requests, stalled connections, evidence frame
            Map<String, long[]> findings = new java.util.TreeMap<>();
            for (int k = 0; k < connections; k++) {
                long first = START_MICROS + (long) k * HOUR_MICROS / connections;
                int endpoint = (int) Math.min(ENDPOINTS - 1, Math.floor(-Math.log(1 - rnd.nextDouble()) * 6));
                String server = "10.1.0." + (endpoint + 1);
                String clientIp = "192.168." + (k >> 8 & 0xFF) + "." + (k & 0xFF);
                int port = endpoint % 3 == 0 ? 80 : 443;
                boolean stalled = rnd.nextInt(50) == 0;
                boolean incident = endpoint == 2 && first >= START_MICROS + 30 * 60_000_000L
                        && first < START_MICROS + 32 * 60_000_000L;
                long rtt = 2_000 + rnd.nextInt(30_000);
                long t = first + rtt;
                long stallTotal = 0;
                long[] ep = findings.computeIfAbsent(server + ":" + port, key -> new long[]{0, 0, 0, 0, -1});
                for (int q = 0; q < REQUESTS_PER_CONNECTION; q++) {
                    long server1 = incident ? 250_000 + rnd.nextInt(100_000) : 200 + rnd.nextInt(20_000);
                    long ttfb = rtt + server1;
                    long stall = stalled && q > 0 ? 40_000 + rnd.nextInt(8_000) : 0;
                    long complete = ttfb + stall + rnd.nextInt(2_000);
                    x.start().l("stream", k).i("exchange_index", q).t("request_start_time", t)
                            .t("request_end_time", t).t("response_first_time", t + ttfb)
                            .t("response_last_time", t + complete).l("request_bytes", 300)
                            .l("response_bytes", 20_000).l("ttfb_us", ttfb).l("network_us", rtt)
                            .l("server_us", server1).l("stall_before_response_us", 0)
                            .l("stall_in_response_us", stall).l("stall_us", stall)
                            .l("complete_us", complete).s("http_method", "GET")
                            .s("http_target", "/api/v1/items/" + rnd.nextInt(100_000) + "?q=" + "x".repeat(q * 40))
                            .s("http_host", server).i("http_status", incident && q == 3 ? 503 : 200).write();
                    r.start().l("stream", k).t("closing_time", t + ttfb).l("closing_frame", 10L * q + 5)
                            .s("kind", "DATA_ACK").s("measured_from", "CLIENT").l("rtt_us", rtt + rnd.nextInt(500))
                            .b("karn_ambiguous", false).s("measured_from_ip", clientIp).write();
                    a.start().l("stream", k).t("ack_time", t + ttfb).l("ack_frame", 10L * q + 6)
                            .s("acking_side", "CLIENT").l("ack_delay_us", stall > 0 ? stall : rnd.nextInt(200))
                            .l("since_newest_us", 0).i("segments", 1).l("acked_bytes", 1448).s("method", "DIRECT")
                            .s("ack_class", stall > 0 ? "DELAYED_40MS" : "IMMEDIATE").s("acking_ip", clientIp).write();
                    if (stall > 0) {
                        s.start().l("stream", k).t("held_time", t + ttfb).l("duration_us", stall)
                                .l("ack_delay_us", stall - 100).l("resume_gap_us", 100).s("holding_side", "SERVER")
                                .s("delaying_side", "CLIENT").l("held_frame", 10L * q + 5)
                                .l("ack_frame", 10L * q + 6).l("resume_frame", 10L * q + 7)
                                .s("evidence", "server frame " + (10 * q + 5) + " waited unacknowledged")
                                .s("holding_ip", server).s("delaying_ip", clientIp).write();
                        stallTotal += stall;
                        ep[2]++;
                        ep[4] = ep[4] < 0 ? 10L * q + 5 : ep[4];
                    }
                    ep[1] += complete;
                    t += complete + 1_000 + rnd.nextInt(100_000);
                }
                if (k % 200 == 0) {
                    e.start().l("stream", k).s("kind", "RETRANSMISSION_TIMEOUT").t("start_time", first + rtt)
                            .l("duration_us", 200_000 + rnd.nextInt(300_000)).s("side", "SERVER")
                            .l("start_frame", 5).l("end_frame", 9).s("evidence", "server frame 9 retransmitted")
                            .s("side_ip", server)
                            .write();
                }
                ep[0] += stallTotal;
                ep[3] += stallTotal > 0 ? 1 : 0;
                c.start().l("stream", k).i("first_file_index", (int) ((long) k * FILES / connections))
                        .l("first_frame", 1 + k % 1000).s("originator_rule", "SYN").t("first_time", first)
                        .t("last_time", t).l("duration_us", t - first).t("syn_time", first)
                        .t("syn_ack_time", first + rtt - 100).t("handshake_ack_time", first + rtt)
                        .l("syn_to_syn_ack_us", rtt - 100).l("syn_ack_to_ack_us", 100).l("initial_rtt_us", rtt)
                        .s("vantage", "NEAR_CLIENT").s("conn_state", "SF").s("history", "ShADadFf")
                        .s("end_reason", "CLOSED").s("client_ip", clientIp)
                        .i("client_port", 1024 + k % 60_000).s("server_ip", server).i("server_port", port)
                        .l("client_packets", 12).l("server_packets", 30).l("stalls", stalled ? 3 : 0)
                        .l("stall_us", stallTotal).l("server_held_stall_us", stallTotal)
                        .l("exchanges", REQUESTS_PER_CONNECTION)
                        .l("server_retransmissions", k % 200 == 0 ? 1 : 0).write();
            }
            // the findings table as analyze would write it for these stalls (the rule of tcp/CauseRanking)
            for (Map.Entry<String, long[]> en : findings.entrySet()) {
                long[] v = en.getValue();
                if (v[0] > 0) {
                    int colon = en.getKey().lastIndexOf(':');
                    f.start().s("server_ip", en.getKey().substring(0, colon))
                            .i("server_port", Integer.parseInt(en.getKey().substring(colon + 1)))
                            .s("cause", "NAGLE_SERVER_HELD").l("connections", v[3]).l("requests", v[2])
                            .l("events", v[2]).l("count", v[2]).l("time_lost_us", v[0]);
                    f.buf.setDouble(f.at("share"), (double) v[0] / v[1]);
                    f.buf.setLongList(f.at("evidence_frames"), new long[]{v[4], v[4] + 1, v[4] + 2});
                    f.write();
                }
            }
        }
        Files.writeString(dir.resolve("_SUCCESS"), "{\"tool\":\"ackscope\",\"command\":\"analyze\",\"synthetic\":true,"
                + "\"tables\":{\"capture_files\":" + FILES + ",\"connections\":" + connections + "}}\n",
                StandardCharsets.UTF_8);
    }
}
