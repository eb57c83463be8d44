package io.ackscope.report;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Numbers and times as the page writes them: UTC times, durations in the unit a person would choose. The command
 * line's summaries use the public ones too ({@link #plural}, {@link #bytes}), so both say "1 file" and "124.4 KiB".
 */
public final class Format {
    private Format() {
    }

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS 'UTC'",
            Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter COMPACT = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    /** A timestamp (µs since the epoch) to the microsecond, in UTC. */
    static String time(long micros) {
        return TIME.format(instant(micros));
    }

    /** A timestamp for a file name: {@code 20261202T100432Z}, {@code 20261202T100432.5Z} (UTC). */
    static String compactTime(long micros) {
        String t = COMPACT.format(instant(micros));
        long fraction = Math.floorMod(micros, 1_000_000L);
        return fraction == 0 ? t + "Z"
                : t + "." + String.format(Locale.ROOT, "%06d", fraction).replaceFirst("0+$", "") + "Z";
    }

    /** Time of day to the millisecond (UTC), for axis labels. */
    static String clock(long micros) {
        return CLOCK.format(instant(micros));
    }

    private static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    /** A duration in µs: "362 µs", "40.4 ms", "2.91 s", "3 min 12 s"; three significant digits. */
    static String duration(long us) {
        if (us < 0) {
            return "-" + duration(-us);
        }
        if (us < 1000) {
            return us + " µs";
        }
        if (us < 1_000_000) {
            return sig3(us / 1e3) + " ms";
        }
        if (us < 60_000_000) {
            return sig3(us / 1e6) + " s";
        }
        long s = Math.round(us / 1e6);
        if (s < 3600) {
            return s / 60 + " min " + s % 60 + " s";
        }
        if (s < 48 * 3600) {
            return s / 3600 + " h " + s % 3600 / 60 + " min";
        }
        return count(s / 86400) + " days";
    }

    /** A duration, or an en dash when there is none. */
    static String duration(Long us) {
        return us == null ? "–" : duration(us.longValue());
    }

    /** A short duration label for an axis tick: "1 µs", "10 ms", "1 s". */
    static String tick(long us) {
        if (us < 1000) {
            return us + " µs";
        }
        if (us < 1_000_000) {
            return trim(us / 1e3) + " ms";
        }
        return trim(us / 1e6) + " s";
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String sig3(double v) {
        if (v >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (v >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** A count with thousands separators. */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** A share as a percentage: "97.1%", "0.04%", "0%". */
    static String percent(double share) {
        double p = share * 100;
        if (p == 0) {
            return "0%";
        }
        if (p < 0.1) {
            return String.format(Locale.ROOT, "%.2f%%", p);
        }
        return String.format(Locale.ROOT, "%.1f%%", p);
    }

    /** n of total as a percentage. */
    static String percent(long n, long total) {
        return total == 0 ? "0%" : percent((double) n / total);
    }

    /** Bytes in the unit a person would choose. */
    public static String bytes(long b) {
        if (b < 1024) {
            return b + " B";
        }
        if (b < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", b / 1024.0);
        }
        if (b < 1024L * 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f MiB", b / (1024.0 * 1024));
        }
        return String.format(Locale.ROOT, "%.2f GiB", b / (1024.0 * 1024 * 1024));
    }

    /** "1 file", "2 files". */
    public static String plural(long n, String one, String many) {
        return count(n) + " " + (n == 1 ? one : many);
    }
}
