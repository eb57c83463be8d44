package io.ackscope.load;

import com.fasterxml.jackson.core.JsonGenerator;
import io.ackscope.json.Json;

import java.io.IOException;
import java.util.Locale;

/**
 * Prints a {@link LoadResult} as wrk prints its summary (same layout and units, so the two can be read side by side),
 * or as one JSON object for scripts.
 *
 * <p>In an open-loop run the "Latency" line and the first distribution column are the corrected latencies (from the
 * intended send time), as wrk2 prints them, and a "Lat (raw)" line and column show the latencies from the actual
 * send next to them.
 */
public final class LoadReport {

    private static final String[] TIME_US = {"us", "ms", "s"};
    private static final String[] TIME_S = {"s", "m", "h"};
    private static final String[] BINARY = {"", "K", "M", "G", "T", "P"};
    private static final String[] METRIC = {"", "k", "M", "G", "T", "P"};
    private static final int[] PERCENTILES = {50, 75, 90, 99};

    private LoadReport() {
    }

    /** wrk's "Running 2s test @ url" header, printed before the run (durations below a second as "600.00ms"). */
    public static String header(LoadConfig c) {
        StringBuilder sb = new StringBuilder();
        long d = c.durationNanos();
        String duration = d % 1_000_000_000L == 0 ? formatUnits(d / 1e9, 60, TIME_S, 0) : formatTimeUs(d / 1e3);
        sb.append("Running ").append(duration).append(" test @ ")
                .append(c.target().url()).append('\n');
        sb.append("  ").append(c.threads()).append(" threads and ").append(c.connections()).append(" connections");
        if (c.openLoop()) {
            sb.append(", ").append(fmt("%.0f", c.rate())).append(" requests/s intended");
        }
        if (c.warmupNanos() > 0) {
            sb.append(", after a ").append(formatTimeUs(c.warmupNanos() / 1e3)).append(" warm-up");
        }
        if (c.quickAck()) {
            sb.append(", TCP_QUICKACK");
        }
        if (!c.noDelay()) {
            sb.append(", Nagle on (no TCP_NODELAY)");
        }
        return sb.append('\n').toString();
    }

    /** The summary after the run, in wrk's layout; {@code distribution} adds the percentiles (wrk's --latency). */
    public static String text(LoadResult r, boolean distribution) {
        StringBuilder sb = new StringBuilder();
        LatencySummary raw = r.latency();
        LatencySummary corrected = r.correctedLatency();
        LatencySummary shown = corrected != null ? corrected : raw;
        sb.append(fmt("  Thread Stats%6s%11s%8s%12s\n", "Avg", "Stdev", "Max", "+/- Stdev"));
        statsLine(sb, "Latency", shown.mean(), shown.stdev(), shown.max(), shown.withinStdevPercent(), true);
        if (corrected != null) {
            statsLine(sb, "Lat (raw)", raw.mean(), raw.stdev(), raw.max(), raw.withinStdevPercent(), true);
        }
        double[] rates = r.rateSamples();
        double mean = mean(rates);
        double stdev = stdev(rates, mean);
        statsLine(sb, "Req/Sec", mean, stdev, max(rates), withinStdev(rates, mean, stdev), false);
        if (distribution) {
            sb.append(corrected != null ? "  Latency Distribution (corrected, raw)\n" : "  Latency Distribution\n");
            long[] shownP = percentiles(shown);
            long[] rawP = percentiles(raw);
            for (int i = 0; i < PERCENTILES.length; i++) {
                sb.append(fmt("%7d%%", PERCENTILES[i]));
                units(sb, formatTimeUs(shownP[i]), 10);
                if (corrected != null) {
                    units(sb, formatTimeUs(rawP[i]), 10);
                }
                sb.append('\n');
            }
        }
        sb.append("  ").append(r.requests()).append(" requests in ").append(formatTimeUs(r.elapsedNanos() / 1e3))
                .append(", ").append(formatUnits(r.bytes(), 1024, BINARY, 2)).append("B read\n");
        long connect = r.errors(LoadError.CONNECT);
        long read = r.errors(LoadError.READ);
        long write = r.errors(LoadError.WRITE);
        long timeout = r.errors(LoadError.TIMEOUT);
        long parse = r.errors(LoadError.PARSE);
        if (connect + read + write + timeout + parse > 0) {
            sb.append("  Socket errors: connect ").append(connect).append(", read ").append(read)
                    .append(", write ").append(write).append(", timeout ").append(timeout)
                    .append(", parse ").append(parse).append('\n');
        }
        if (r.statusErrors() > 0) {
            sb.append("  Non-2xx or 3xx responses: ").append(r.statusErrors()).append('\n');
        }
        sb.append(fmt("Requests/sec: %9.2f\n", r.requestsPerSecond()));
        sb.append(fmt("Transfer/sec: %10sB\n", formatUnits(r.bytesPerSecond(), 1024, BINARY, 2)));
        return sb.toString();
    }

    /** The summary as one JSON object (latencies in microseconds, seconds and rates with 3 decimals), for scripts. */
    public static String json(LoadResult r, String outFile) {
        LoadConfig c = r.config();
        double[] rates = r.rateSamples();
        double mean = mean(rates);
        return Json.string(w -> {
            w.writeStartObject();
            w.writeFieldName("url");
            Json.string(w, c.target().url());
            w.writeNumberField("threads", c.threads());
            w.writeNumberField("connections", c.connections());
            number(w, "duration_s", c.durationNanos() / 1e9);
            number(w, "warmup_s", c.warmupNanos() / 1e9);
            if (c.openLoop()) {
                number(w, "rate", c.rate());
            } else {
                w.writeNullField("rate");
            }
            w.writeBooleanField("quickack", c.quickAck());
            w.writeBooleanField("nodelay", c.noDelay());
            w.writeNumberField("requests", r.requests());
            w.writeNumberField("failed_requests", r.failedRequests());
            number(w, "elapsed_s", r.elapsedNanos() / 1e9);
            w.writeNumberField("bytes", r.bytes());
            number(w, "requests_per_sec", r.requestsPerSecond());
            number(w, "bytes_per_sec", r.bytesPerSecond());
            w.writeNumberField("connections_opened", r.connectionsOpened());
            w.writeFieldName("latency_us");
            latencyJson(w, r.latency());
            w.writeFieldName("corrected_latency_us");
            if (r.correctedLatency() == null) {
                w.writeNull();
            } else {
                latencyJson(w, r.correctedLatency());
            }
            w.writeObjectFieldStart("req_per_sec_per_thread");
            number(w, "mean", mean);
            number(w, "stdev", stdev(rates, mean));
            number(w, "max", max(rates));
            w.writeEndObject();
            w.writeObjectFieldStart("errors");
            for (LoadError e : LoadError.values()) {
                w.writeNumberField(e.label(), r.errors(e));
            }
            w.writeNumberField("status", r.statusErrors());
            w.writeEndObject();
            w.writeFieldName("out");
            Json.string(w, outFile);
            w.writeEndObject();
        });
    }

    /** {@code name: v} with 3 decimals, or {@code null} when {@code v} is not finite. */
    private static void number(JsonGenerator w, String name, double v) throws IOException {
        w.writeFieldName(name);
        Json.number(w, v, 3);
    }

    private static void latencyJson(JsonGenerator w, LatencySummary s) throws IOException {
        w.writeStartObject();
        w.writeNumberField("count", s.count());
        number(w, "mean", s.mean());
        number(w, "stdev", s.stdev());
        w.writeNumberField("min", s.min());
        w.writeNumberField("max", s.max());
        w.writeNumberField("p50", s.p50());
        w.writeNumberField("p75", s.p75());
        w.writeNumberField("p90", s.p90());
        w.writeNumberField("p99", s.p99());
        w.writeNumberField("p999", s.p999());
        w.writeEndObject();
    }

    private static long[] percentiles(LatencySummary s) {
        return new long[] {s.p50(), s.p75(), s.p90(), s.p99()};
    }

    private static void statsLine(StringBuilder sb, String name, double mean, double stdev, double max,
                                  double within, boolean time) {
        sb.append(fmt("    %-10s", name));
        units(sb, time ? formatTimeUs(mean) : formatUnits(mean, 1000, METRIC, 2), 8);
        units(sb, time ? formatTimeUs(stdev) : formatUnits(stdev, 1000, METRIC, 2), 10);
        units(sb, time ? formatTimeUs(max) : formatUnits(max, 1000, METRIC, 2), 9);
        sb.append(fmt("%8.2f%%\n", within));
    }

    /** wrk's print_units: right-aligned in {@code width}, with the unit letters hanging into two spare columns. */
    private static void units(StringBuilder sb, String msg, int width) {
        int len = msg.length();
        int pad = 2;
        if (len > 0 && Character.isLetter(msg.charAt(len - 1))) {
            pad--;
        }
        if (len > 1 && Character.isLetter(msg.charAt(len - 2))) {
            pad--;
        }
        int w = width - pad;
        for (int i = len; i < w; i++) {
            sb.append(' ');
        }
        sb.append(msg);
        for (int i = 0; i < pad; i++) {
            sb.append(' ');
        }
    }

    /** wrk's format_time_us: microseconds shown in us/ms, or in s/m/h from one second on. */
    static String formatTimeUs(double us) {
        if (us >= 1_000_000) {
            return formatUnits(us / 1_000_000, 60, TIME_S, 2);
        }
        return formatUnits(us, 1000, TIME_US, 2);
    }

    /**
     * wrk's format_units: divides while the amount is at least 85% of the next unit, but never into the last unit
     * of the list (wrk's loop stops one short, which is why 900 ms stays "900.00ms" rather than "0.90s").
     */
    static String formatUnits(double n, int scale, String[] units, int precision) {
        double amount = n;
        String unit = units[0];
        for (int i = 1; i < units.length - 1 && amount >= scale * 0.85; i++) {
            amount /= scale;
            unit = units[i];
        }
        return fmt("%." + precision + "f%s", amount, unit);
    }

    private static double mean(double[] v) {
        double sum = 0;
        for (double x : v) {
            sum += x;
        }
        return v.length == 0 ? 0 : sum / v.length;
    }

    /** Sample standard deviation, as wrk's stats_stdev. */
    private static double stdev(double[] v, double mean) {
        if (v.length < 2) {
            return 0;
        }
        double sum = 0;
        for (double x : v) {
            sum += (x - mean) * (x - mean);
        }
        return Math.sqrt(sum / (v.length - 1));
    }

    private static double max(double[] v) {
        double m = 0;
        for (double x : v) {
            m = Math.max(m, x);
        }
        return m;
    }

    private static double withinStdev(double[] v, double mean, double stdev) {
        if (v.length == 0) {
            return 0;
        }
        int n = 0;
        for (double x : v) {
            if (x >= mean - stdev && x <= mean + stdev) {
                n++;
            }
        }
        return 100.0 * n / v.length;
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
