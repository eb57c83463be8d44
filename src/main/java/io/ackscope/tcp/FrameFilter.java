package io.ackscope.tcp;

import io.ackscope.decode.CaptureFilter;
import io.ackscope.decode.PacketDecoder;

import java.io.Serializable;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which frames of a capture {@code analyze} hands to the engine: a time window ({@code --since} inclusive,
 * {@code --until} exclusive), server endpoints ({@code --server HOST[:PORT]}) and a capture filter in tcpdump's
 * syntax ({@code --filter}, {@link CaptureFilter}). Each applies per frame, before the engine; a frame one of them
 * drops is counted under the reason {@code filtered (--since)}, {@code filtered (--until)},
 * {@code filtered (--filter)} or {@code filtered (--server)} (the first that drops it, in that order), so every
 * frame is still accounted for.
 *
 * <p>{@code --server} has no role to go by (which end is the server is known only once the engine has seen the
 * connection), so it keeps the frames from or to the endpoint: both directions of its connections. It is the capture
 * filter {@code (src host H and src port P) or (dst host H and dst port P)} ({@code host H} without a port), several
 * endpoints or'ed. A frame without a timestamp is outside any window.
 *
 * <p>The parsers here ({@link #parseTime}, {@link #parseEndpoint}) are also {@code report}'s, so the two commands
 * take the same times and endpoints. Serializable: it travels to the read tasks as text and compiles there.
 */
public final class FrameFilter implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Reasons under which dropped frames are counted ({@code capture_files.skipped_by_reason}). */
    public static final String SINCE = "filtered (--since)", UNTIL = "filtered (--until)",
            FILTER = "filtered (--filter)", SERVER = "filtered (--server)";

    /** Whether {@code reason} is one of the reasons above. */
    public static boolean isReason(String reason) {
        return reason.equals(SINCE) || reason.equals(UNTIL) || reason.equals(FILTER) || reason.equals(SERVER);
    }

    /** Keeps every frame. */
    public static final FrameFilter NONE = new FrameFilter(Long.MIN_VALUE, Long.MAX_VALUE, List.of(), null);

    private final long sinceNanos;
    private final long untilNanos;
    /** The {@code --server} values as given (normalised), and the capture filter they make; null without any. */
    private final List<String> servers;
    private final String serverExpression;
    private final String filter;
    private transient CaptureFilter compiledFilter;
    private transient CaptureFilter compiledServers;

    private FrameFilter(long sinceNanos, long untilNanos, List<String> servers, String filter) {
        this.sinceNanos = sinceNanos;
        this.untilNanos = untilNanos;
        this.servers = List.copyOf(servers);
        List<String> parts = new ArrayList<>();
        for (String s : servers) {
            parts.add(parseEndpoint("--server", s, false).captureFilter());
        }
        this.serverExpression = parts.isEmpty() ? null : String.join(" or ", parts);
        this.filter = filter;
    }

    /**
     * Parses the command line's values (each may be null or empty: not given); {@link IllegalArgumentException}
     * naming the option (and, for a capture filter, the position) when one cannot be read.
     */
    public static FrameFilter parse(String since, String until, List<String> servers, String filter) {
        long s = since == null ? Long.MIN_VALUE : parseTime("--since", since);
        long u = until == null ? Long.MAX_VALUE : parseTime("--until", until);
        if (s >= u) {
            throw new IllegalArgumentException("--since must be before --until");
        }
        List<String> normalised = new ArrayList<>();
        for (String v : servers) {
            normalised.add(parseEndpoint("--server", v, false).text());
        }
        if (filter != null) {
            try {
                CaptureFilter.parse(filter);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--filter: " + e.getMessage(), e);
            }
        }
        return new FrameFilter(s, u, normalised, filter);
    }

    /** Whether it keeps every frame. */
    public boolean isNone() {
        return sinceNanos == Long.MIN_VALUE && untilNanos == Long.MAX_VALUE && servers.isEmpty() && filter == null;
    }

    /**
     * Why the frame just decoded by {@code d} is dropped, or null when it is kept.
     *
     * @param frame          the buffer given to {@link PacketDecoder#decode}
     * @param timestampNanos its capture time, or {@code noTimestamp}
     * @param frameLength    its original length
     */
    public String drop(PacketDecoder d, byte[] frame, long timestampNanos, long noTimestamp, long frameLength) {
        if (sinceNanos != Long.MIN_VALUE && (timestampNanos == noTimestamp || timestampNanos < sinceNanos)) {
            return SINCE;
        }
        if (untilNanos != Long.MAX_VALUE && (timestampNanos == noTimestamp || timestampNanos >= untilNanos)) {
            return UNTIL;
        }
        if (filter != null) {
            if (compiledFilter == null) {
                compiledFilter = CaptureFilter.parse(filter);
            }
            if (!compiledFilter.matches(d, frame, frameLength)) {
                return FILTER;
            }
        }
        if (serverExpression != null) {
            if (compiledServers == null) {
                compiledServers = CaptureFilter.parse(serverExpression);
            }
            if (!compiledServers.matches(d, frame, frameLength)) {
                return SERVER;
            }
        }
        return null;
    }

    /** The filters given, for the {@code _SUCCESS} summary: option name to value (times as ISO-8601 UTC). */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        if (sinceNanos != Long.MIN_VALUE) {
            m.put("since", instant(sinceNanos));
        }
        if (untilNanos != Long.MAX_VALUE) {
            m.put("until", instant(untilNanos));
        }
        if (!servers.isEmpty()) {
            m.put("server", servers);
        }
        if (filter != null) {
            m.put("filter", filter);
        }
        return m;
    }

    /**
     * The filter as the {@code pcap} data source's options ({@code since}, {@code until} as epoch seconds with
     * nine decimals, {@code server} comma-separated, {@code filter}), which {@link #parse} reads back as this.
     */
    public Map<String, String> options() {
        Map<String, String> m = new LinkedHashMap<>();
        if (sinceNanos != Long.MIN_VALUE) {
            m.put("since", BigDecimal.valueOf(sinceNanos, 9).toPlainString());
        }
        if (untilNanos != Long.MAX_VALUE) {
            m.put("until", BigDecimal.valueOf(untilNanos, 9).toPlainString());
        }
        if (!servers.isEmpty()) {
            m.put("server", String.join(",", servers));
        }
        if (filter != null) {
            m.put("filter", filter);
        }
        return m;
    }

    private static String instant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L))
                .toString();
    }

    /**
     * A time as people type it: ISO-8601 with an offset ({@code 2026-12-02T10:04:32.5Z}, {@code ...+01:00}),
     * without one (UTC, like every time in the tables; a space for the {@code T} is taken, as is a date alone, its
     * midnight), or seconds since the epoch with up to 9 decimals ({@code 1796205072.9}). Returns nanoseconds since
     * the epoch; {@link IllegalArgumentException} naming {@code option}.
     */
    public static long parseTime(String option, String t) {
        String v = t.trim();
        try {
            if (v.matches("\\d+(\\.\\d{1,9})?")) {
                return new BigDecimal(v).movePointRight(9).longValueExact();
            }
            if (v.matches("\\d{4}-\\d{2}-\\d{2} \\d.*")) {
                v = v.replaceFirst(" ", "T");
            }
            Instant i;
            if (v.matches("\\d{4}-\\d{2}-\\d{2}")) {
                i = LocalDate.parse(v).atStartOfDay().toInstant(ZoneOffset.UTC);
            } else {
                try {
                    i = OffsetDateTime.parse(v).toInstant();
                } catch (DateTimeParseException e) {
                    i = LocalDateTime.parse(v).toInstant(ZoneOffset.UTC);
                }
            }
            return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000_000L), i.getNano());
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new IllegalArgumentException(option + ": not a time: " + t + " (use ISO-8601 such as "
                    + "2026-12-02T10:04:32Z or 2026-12-02 10:04:32 (UTC), or seconds since the epoch)");
        }
    }

    /**
     * An endpoint as given to {@code --server}.
     *
     * @param host an IP literal in the tables' spelling (IPv6 as RFC 5952, lower case), or a name as written
     * @param port the port, or -1 when none was given
     */
    public record Endpoint(String host, int port) {
        /** {@code addr:port} as the tables give endpoints ({@code [v6]:port}); the host alone without a port. */
        public String text() {
            return port < 0 ? host : Addresses.endpointText(host, port);
        }

        boolean ipLiteral() {
            return host.indexOf(':') >= 0 || host.matches("\\d{1,3}(\\.\\d{1,3}){3}");
        }

        /** The capture filter that keeps the frames from or to this endpoint. */
        String captureFilter() {
            if (!ipLiteral()) {
                throw new IllegalArgumentException("--server: " + host + " is not an IP address (names are not "
                        + "looked up)");
            }
            return port < 0 ? "(host " + host + ")" : "((src host " + host + " and src port " + port
                    + ") or (dst host " + host + " and dst port " + port + "))";
        }
    }

    /**
     * Parses {@code HOST:PORT}, {@code [IPv6]:PORT}, or (unless {@code portRequired}) a host alone, IPv6 with or
     * without brackets. IP literals are normalised to the tables' spelling; nothing is ever looked up.
     */
    public static Endpoint parseEndpoint(String option, String v, boolean portRequired) {
        String s = v.trim();
        String host = s;
        int port = -1;
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0 || (close + 1 < s.length() && s.charAt(close + 1) != ':')) {
                throw new IllegalArgumentException(option + " wants HOST:PORT or [IPv6]:PORT, not " + v);
            }
            host = s.substring(1, close);
            if (close + 1 < s.length()) {
                port = port(option, s.substring(close + 2), v);
            }
        } else if (s.indexOf(':') == s.lastIndexOf(':') && s.indexOf(':') >= 0) {
            host = s.substring(0, s.indexOf(':'));
            port = port(option, s.substring(s.indexOf(':') + 1), v);
        } else if (s.indexOf(':') >= 0 && portRequired) {
            throw new IllegalArgumentException(option + ": write an IPv6 address in brackets with its port, [" + s
                    + "]:PORT");
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException(option + " wants HOST[:PORT], not " + v);
        }
        if (portRequired && port < 0) {
            throw new IllegalArgumentException(option + " wants HOST:PORT (IPv6 as [addr]:PORT), not " + v);
        }
        return new Endpoint(canonicalIp(option, host), port);
    }

    private static int port(String option, String text, String v) {
        try {
            int port = Integer.parseInt(text);
            if (port >= 0 && port <= 65535) {
                return port;
            }
            throw new IllegalArgumentException(option + ": port out of range in " + v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": bad port in " + v);
        }
    }

    /** IP literals in the tables' spelling (IPv6 RFC 5952, lower case); anything else unchanged. */
    private static String canonicalIp(String option, String host) {
        if (host.indexOf(':') < 0 || !host.matches("[0-9A-Fa-f:.]+")) {
            return host;
        }
        try {
            // A literal of hex digits, colons and dots: parsed, never looked up.
            byte[] b = InetAddress.getByName(host).getAddress();
            if (b.length != 16) {
                return host.toLowerCase(Locale.ROOT);
            }
            long hi = 0, lo = 0;
            for (int i = 0; i < 8; i++) {
                hi = hi << 8 | (b[i] & 0xFF);
                lo = lo << 8 | (b[i + 8] & 0xFF);
            }
            return Addresses.format(hi, lo);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(option + ": not an IPv6 address: " + host);
        }
    }
}
