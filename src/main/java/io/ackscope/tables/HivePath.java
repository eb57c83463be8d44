package io.ackscope.tables;

import java.time.Instant;
import java.time.ZoneOffset;

/**
 * The Hive-style partition directories of the tables ({@code source=<name>/date=YYYY-MM-DD}), both ways: what the
 * writer names and what a reader of the paths gets back. The escaping is Hive's, as Spark's
 * {@code ExternalCatalogUtils.escapePathName} does it (so Spark, DuckDB and pyarrow read the same value back):
 * control characters, {@code "#%'*\/:=?[]^{} } and DEL become {@code %XX}; an empty value is
 * {@value #DEFAULT_PARTITION}. Everything taken from a capture's path is escaped here before it becomes a path.
 */
public final class HivePath {
    private HivePath() {
    }

    /** Hive's name for a null or empty partition value. */
    public static final String DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__";
    /** The partition column of the capture source. */
    public static final String SOURCE = "source";
    /** The partition column of the capture date (UTC). */
    public static final String DATE = "date";

    private static final boolean[] ESCAPED = new boolean[128];

    static {
        for (int c = 1; c < 0x20; c++) {
            ESCAPED[c] = true;
        }
        for (char c : "\"#%'*/:=?\\\u007F{[]^".toCharArray()) {
            ESCAPED[c] = true;
        }
    }

    /** {@code value} escaped for a path segment (Hive's rules); {@value #DEFAULT_PARTITION} when empty or null. */
    public static String escape(String value) {
        if (value == null || value.isEmpty()) {
            return DEFAULT_PARTITION;
        }
        StringBuilder sb = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < ESCAPED.length && ESCAPED[c]) {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** The value of an escaped path segment ({@code %XX} decoded where XX is hexadecimal, the rest as it is). */
    public static String unescape(String segment) {
        StringBuilder sb = new StringBuilder(segment.length());
        int i = 0;
        while (i < segment.length()) {
            char c = segment.charAt(i);
            if (c == '%' && i + 2 < segment.length() && hex(segment.charAt(i + 1)) >= 0
                    && hex(segment.charAt(i + 2)) >= 0) {
                sb.append((char) (hex(segment.charAt(i + 1)) * 16 + hex(segment.charAt(i + 2))));
                i += 3;
            } else {
                sb.append(c);
                i++;
            }
        }
        return sb.toString();
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }

    /** {@code source=<escaped>}: the directory of a source's rows in a table partitioned by source only. */
    public static String sourceDir(String source) {
        return SOURCE + "=" + escape(source);
    }

    /**
     * {@code source=<escaped>/date=YYYY-MM-DD}: the directory of rows of {@code source} whose time is
     * {@code nanos} (UTC date); {@code date=}{@value #DEFAULT_PARTITION} for {@link Long#MIN_VALUE} (no time).
     */
    public static String sourceDateDir(String source, long nanos) {
        return sourceDir(source) + "/" + DATE + "=" + date(nanos);
    }

    /** The UTC date of {@code nanos} as {@code YYYY-MM-DD}, {@value #DEFAULT_PARTITION} for {@link Long#MIN_VALUE}. */
    public static String date(long nanos) {
        if (nanos == Long.MIN_VALUE) {
            return DEFAULT_PARTITION;
        }
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L)).atOffset(ZoneOffset.UTC).toLocalDate()
                .toString();
    }

    /**
     * The source whose rows a table file holds, from its path relative to the table's directory
     * ({@code source=<escaped>/...}), or null for a file outside any source partition.
     */
    public static String sourceOf(String relativePath) {
        String prefix = SOURCE + "=";
        if (!relativePath.startsWith(prefix)) {
            return null;
        }
        int slash = relativePath.indexOf('/');
        if (slash < 0) {
            return null;
        }
        String seg = relativePath.substring(prefix.length(), slash);
        return seg.equals(DEFAULT_PARTITION) ? "" : unescape(seg);
    }
}
