package io.ackscope.report;

import io.ackscope.tcp.Addresses;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
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
     * Parses the command line's values.
     *
     * @param servers {@code HOST:PORT} values (IPv6 in brackets); hosts are matched as written, except that IP
     *                literals are normalised (no name is ever resolved)
     * @param since   a time (see {@link #parseTime}) or null
     * @param until   a time or null
     */
    public static ReportFilter parse(List<String> servers, String since, String until) {
        List<String> s = new ArrayList<>();
        for (String v : servers) {
            s.add(normaliseEndpoint(v));
        }
        return new ReportFilter(s, since == null ? Long.MIN_VALUE : parseTime(since),
                until == null ? Long.MAX_VALUE : parseTime(until));
    }

    /**
     * A time as ISO-8601 with an offset ({@code 2026-12-02T10:04:32.5Z}, {@code ...+01:00}), ISO-8601 without one
     * (taken as UTC, like every time in the report), or seconds since the epoch ({@code 1796205072.9}).
     * Returns microseconds since the epoch.
     */
    public static long parseTime(String t) {
        String v = t.trim();
        try {
            if (v.matches("\\d+(\\.\\d{1,9})?")) {
                return new BigDecimal(v).movePointRight(6).longValue();
            }
            Instant i;
            try {
                i = OffsetDateTime.parse(v).toInstant();
            } catch (DateTimeParseException e) {
                i = LocalDateTime.parse(v).toInstant(ZoneOffset.UTC);
            }
            return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new IllegalArgumentException("not a time: " + t + " (use ISO-8601 such as 2026-12-02T10:04:32Z, "
                    + "or seconds since the epoch)");
        }
    }

    /** {@code HOST:PORT} in the form the tables give endpoints ({@link Addresses#endpointText}). */
    static String normaliseEndpoint(String v) {
        String s = v.trim();
        int colon = s.lastIndexOf(':');
        if (colon <= 0 || colon == s.length() - 1) {
            throw new IllegalArgumentException("--server wants HOST:PORT (IPv6 as [addr]:PORT), not " + v);
        }
        String host = s.substring(0, colon);
        int port;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--server: bad port in " + v);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--server: port out of range in " + v);
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.indexOf(':') >= 0) {
            throw new IllegalArgumentException("--server: write an IPv6 address in brackets, [" + host + "]:" + port);
        }
        return Addresses.endpointText(canonicalIp(host), port);
    }

    /** IP literals in the tables' spelling (IPv6 RFC 5952, lower case); anything else unchanged. */
    private static String canonicalIp(String host) {
        if (host.indexOf(':') >= 0 && host.matches("[0-9A-Fa-f:.]+")) {
            try {
                // A literal of hex digits, colons and dots: parsed, never looked up.
                byte[] b = java.net.InetAddress.getByName(host).getAddress();
                long hi = 0, lo = 0;
                if (b.length == 16) {
                    for (int i = 0; i < 8; i++) {
                        hi = hi << 8 | (b[i] & 0xFF);
                        lo = lo << 8 | (b[i + 8] & 0xFF);
                    }
                    return Addresses.format(hi, lo);
                }
                return host.toLowerCase(Locale.ROOT);
            } catch (java.net.UnknownHostException e) {
                throw new IllegalArgumentException("--server: not an IPv6 address: " + host);
            }
        }
        return host;
    }

    boolean selectsServer(String endpoint) {
        return servers.isEmpty() || servers.contains(endpoint);
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
