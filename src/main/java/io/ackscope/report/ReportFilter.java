package io.ackscope.report;

import io.ackscope.tcp.Addresses;
import io.ackscope.tcp.FrameFilter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which part of the tables a report covers: some capture sources, some server endpoints, and a time window.
 *
 * <p>A connection is in the report when its server endpoint is selected and its lifetime overlaps the window;
 * a measurement (RTT sample, ACK delay, stall, exchange) when its connection is and its own timestamp is in the
 * window ({@code since} inclusive, {@code until} exclusive). Exchanges count by their request start, stalls by
 * the held segment, handshakes by the SYN.
 *
 * @param servers     selected endpoints as {@code addr:port} ({@code [v6]:port}); empty = all
 * @param sinceMicros window start (µs since the epoch), or {@link Long#MIN_VALUE}
 * @param untilMicros window end, or {@link Long#MAX_VALUE}
 * @param sources     selected capture sources (the {@code source} column); empty = all
 */
public record ReportFilter(List<String> servers, long sinceMicros, long untilMicros, List<String> sources) {

    /** Everything. */
    public static final ReportFilter ALL = new ReportFilter(List.of(), Long.MIN_VALUE, Long.MAX_VALUE);

    public ReportFilter(List<String> servers, long sinceMicros, long untilMicros) {
        this(servers, sinceMicros, untilMicros, List.of());
    }

    public ReportFilter {
        servers = List.copyOf(servers);
        sources = List.copyOf(sources);
        if (sinceMicros >= untilMicros) {
            throw new IllegalArgumentException("--since must be before --until");
        }
    }

    /**
     * Parses the command line's values, as {@code analyze} parses its own ({@link FrameFilter#parseEndpoint},
     * {@link FrameFilter#parseTime}: one syntax for both commands).
     *
     * @param servers {@code HOST[:PORT]} values (IPv6 in brackets with a port); hosts are matched as written, except
     *                that IP literals are normalised (no name is ever resolved); a host alone selects all its ports
     * @param since   a time or null
     * @param until   a time or null
     */
    public static ReportFilter parse(List<String> servers, String since, String until) {
        List<String> s = new ArrayList<>();
        for (String v : servers) {
            s.add(normaliseEndpoint(v));
        }
        return new ReportFilter(s, since == null ? Long.MIN_VALUE : parseTime("--since", since),
                until == null ? Long.MAX_VALUE : parseTime("--until", until));
    }

    /** A time (see {@link FrameFilter#parseTime}) in microseconds since the epoch, as the tables have them. */
    public static long parseTime(String t) {
        return parseTime("time", t);
    }

    private static long parseTime(String option, String t) {
        return Math.floorDiv(FrameFilter.parseTime(option, t), 1000L);
    }

    /** {@code HOST[:PORT]} in the form the tables give endpoints ({@link Addresses#endpointText}). */
    static String normaliseEndpoint(String v) {
        return FrameFilter.parseEndpoint("--server", v, false).text();
    }

    /** Whether {@code endpoint} ({@code addr:port}) is selected: by itself, or by its host given alone. */
    boolean selectsServer(String endpoint) {
        if (servers.isEmpty() || servers.contains(endpoint)) {
            return true;
        }
        String host = endpoint.substring(0, Math.max(0, endpoint.lastIndexOf(':')));
        return servers.contains(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
    }

    /** This filter, keeping only the connections of {@code names} (none: every source). */
    public ReportFilter withSources(List<String> names) {
        return new ReportFilter(servers, sinceMicros, untilMicros, names);
    }

    /** Whether a row of {@code source} is selected (null: an output without sources, always selected). */
    boolean selectsSource(String source) {
        return sources.isEmpty() || source == null || sources.contains(source);
    }

    boolean inWindow(long micros) {
        return micros >= sinceMicros && micros < untilMicros;
    }

    boolean overlaps(long firstMicros, long lastMicros) {
        return lastMicros >= sinceMicros && firstMicros < untilMicros;
    }

    /** Whether the filter selects everything. */
    public boolean isAll() {
        return servers.isEmpty() && sources.isEmpty() && sinceMicros == Long.MIN_VALUE
                && untilMicros == Long.MAX_VALUE;
    }

    /**
     * The report's file name in the output directory: {@link Report#FILE_NAME} for everything, otherwise one
     * beside it that names the filter ({@code report-127.0.0.1_8080.html},
     * {@code report-2001_db8__1_443-since-20261202T100000Z.html}), so a filtered report never replaces the full one.
     * Only letters, digits, dots, dashes and underscores; a long name is cut and ends with a hash of the whole.
     */
    public String fileName() {
        if (isAll()) {
            return Report.FILE_NAME;
        }
        List<String> parts = new ArrayList<>();
        for (String s : sources) {
            parts.add("source-" + s);
        }
        for (String s : servers) {
            parts.add(s.replace("[", "").replace("]", ""));
        }
        if (sinceMicros != Long.MIN_VALUE) {
            parts.add("since-" + Format.compactTime(sinceMicros));
        }
        if (untilMicros != Long.MAX_VALUE) {
            parts.add("until-" + Format.compactTime(untilMicros));
        }
        String slug = String.join("-", parts).replaceAll("[^A-Za-z0-9._-]", "_");
        if (slug.length() > MAX_SLUG) {
            slug = slug.substring(0, MAX_SLUG - 9) + "-" + String.format(Locale.ROOT, "%08x", slug.hashCode());
        }
        return "report-" + slug + ".html";
    }

    /** Longest filter part of {@link #fileName()}: the whole name stays well under the usual 255-byte limit. */
    private static final int MAX_SLUG = 120;

    /** The filter in words, for the page. */
    public String describe() {
        if (isAll()) {
            return "everything in the tables";
        }
        List<String> parts = new ArrayList<>();
        if (!sources.isEmpty()) {
            parts.add("source " + String.join(", ", sources));
        }
        if (!servers.isEmpty()) {
            parts.add("server " + String.join(", ", servers));
        }
        if (sinceMicros != Long.MIN_VALUE) {
            parts.add("from " + Format.time(sinceMicros));
        }
        if (untilMicros != Long.MAX_VALUE) {
            parts.add("until " + Format.time(untilMicros));
        }
        return String.join("; ", parts);
    }
}
