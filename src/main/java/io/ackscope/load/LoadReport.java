package io.ackscope.load;

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

    /** The summary as one JSON object (latencies in microseconds), for scripts. */
    public static String json(LoadResult r, String outFile) {
        LoadConfig c = r.config();
        double[] rates = r.rateSamples();
        double mean = mean(rates);
        StringBuilder sb = new StringBuilder(1024).append('{');
        field(sb, "url", c.target().url());
        field(sb, "threads", c.threads());
        field(sb, "connections", c.connections());
        field(sb, "duration_s", c.durationNanos() / 1e9);
        field(sb, "warmup_s", c.warmupNanos() / 1e9);
        sb.append("\"rate\":").append(c.openLoop() ? fmt("%.3f", c.rate()) : "null").append(',');
        field(sb, "quickack", c.quickAck());
        field(sb, "nodelay", c.noDelay());
        field(sb, "requests", r.requests());
        field(sb, "failed_requests", r.failedRequests());
        field(sb, "elapsed_s", r.elapsedNanos() / 1e9);
        field(sb, "bytes", r.bytes());
        field(sb, "requests_per_sec", r.requestsPerSecond());
        field(sb, "bytes_per_sec", r.bytesPerSecond());
        field(sb, "connections_opened", r.connectionsOpened());
        sb.append("\"latency_us\":");
        latencyJson(sb, r.latency());
        sb.append(",\"corrected_latency_us\":");
        if (r.correctedLatency() == null) {
            sb.append("null");
        } else {
            latencyJson(sb, r.correctedLatency());
        }
        sb.append(",\"req_per_sec_per_thread\":{");
        field(sb, "mean", mean);
        field(sb, "stdev", stdev(rates, mean));
        sb.append("\"max\":").append(num(max(rates))).append("},\"errors\":{");
        for (LoadError e : LoadError.values()) {
            field(sb, e.label(), r.errors(e));
        }
        sb.append("\"status\":").append(r.statusErrors()).append("},\"out\":");
        if (outFile == null) {
            sb.append("null");
        } else {
            string(sb, outFile);
        }
        return sb.append('}').toString();
    }

    private static void latencyJson(StringBuilder sb, LatencySummary s) {
        sb.append('{');
        field(sb, "count", s.count());
        field(sb, "mean", s.mean());
        field(sb, "stdev", s.stdev());
        field(sb, "min", s.min());
        field(sb, "max", s.max());
        field(sb, "p50", s.p50());
        field(sb, "p75", s.p75());
        field(sb, "p90", s.p90());
        field(sb, "p99", s.p99());
        sb.append("\"p999\":").append(s.p999()).append('}');
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

    private static void field(StringBuilder sb, String name, String value) {
        string(sb, name);
        sb.append(':');
        string(sb, value);
        sb.append(',');
    }

    private static void field(StringBuilder sb, String name, long value) {
        string(sb, name);
        sb.append(':').append(value).append(',');
    }

    private static void field(StringBuilder sb, String name, double value) {
        string(sb, name);
        sb.append(':').append(num(value)).append(',');
    }

    private static void field(StringBuilder sb, String name, boolean value) {
        string(sb, name);
        sb.append(':').append(value).append(',');
    }

    private static String num(double v) {
        return Double.isFinite(v) ? fmt("%.3f", v) : "null";
    }

    /** A JSON string with the characters RFC 8259 requires escaped. */
    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '"' || ch == '\\') {
                sb.append('\\').append(ch);
            } else if (ch < 0x20) {
                sb.append(fmt("\\u%04x", (int) ch));
            } else {
                sb.append(ch);
            }
        }
        sb.append('"');
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
