package io.ackscope.tcp;

import java.nio.charset.StandardCharsets;

/**
 * The one text form of IP addresses, as tshark prints them: the {@code packets} table ({@code src_ip}), the engine's
 * tables ({@code client_ip}, {@code server_ip}), the report and {@code fields} all write through here, so a join
 * on the text agrees.
 *
 * <p>IPv4 is a dotted quad. IPv6 follows the BSD {@code inet_ntop} that tshark's {@code ipv6.src} uses (RFC 5952):
 * lower-case groups without leading zeros, the first longest run of two or more zero groups as {@code ::}, and a
 * dotted tail for IPv4-mapped ({@code ::ffff:a.b.c.d}) and IPv4-compatible ({@code ::a.b.c.d}, but {@code ::1}
 * and the like stay hexadecimal) addresses.
 *
 * <p>Addresses are the decoder's two longs (network order, IPv4 as {@code ::ffff:a.b.c.d}). The byte writers
 * allocate nothing (the per-frame paths use them); {@link #format} makes a String (once per connection side).
 */
public final class Addresses {
    /** Longest text written: 8 groups of 4 hex digits and 7 colons (a dotted tail makes a shorter text). */
    public static final int MAX_TEXT = 39;

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private Addresses() {
    }

    /** True when the address is an IPv4-mapped IPv6 address {@code ::ffff:a.b.c.d}. */
    public static boolean isIpv4(long hi, long lo) {
        return hi == 0 && (lo >>> 32) == 0xffffL;
    }

    /** True for 127.0.0.0/8 and ::1. */
    public static boolean isLoopback(long hi, long lo) {
        if (isIpv4(hi, lo)) {
            return ((lo >>> 24) & 0xff) == 127;
        }
        return hi == 0 && lo == 1;
    }

    /**
     * Dotted quad when the address is IPv4-mapped (the decoder's form of an IPv4 address), IPv6 text otherwise. The
     * engine does not keep the IP version, so an IPv6 packet's {@code ::ffff:a.b.c.d} reads as IPv4 here (its
     * {@code packets} row, which knows the version, says {@code ::ffff:a.b.c.d}); no capture in the corpus has one.
     */
    public static String format(long hi, long lo) {
        long z = (hi * 0x9E3779B97F4A7C15L) ^ (lo * 0xC2B2AE3D27D4EB4FL);
        int slot = (int) (z ^ (z >>> 32)) & (TEXTS.length - 1);
        Text t = TEXTS[slot];
        if (t != null && t.hi == hi && t.lo == lo) {
            return t.text;
        }
        byte[] text = new byte[MAX_TEXT];
        int n = write(isIpv4(hi, lo) ? 4 : 6, hi, lo, text, 0);
        String s = new String(text, 0, n, StandardCharsets.US_ASCII);
        TEXTS[slot] = new Text(hi, lo, s);
        return s;
    }

    /**
     * The texts {@link #format} made last, direct-mapped by address: a capture's connections mostly share a few
     * hosts, so each connection side's text is one lookup, and equal addresses share one String (whose hash is
     * then computed once). Entries are immutable, so threads racing on a slot see a whole entry or another one.
     */
    private static final Text[] TEXTS = new Text[4096];

    private record Text(long hi, long lo, String text) {
    }

    /**
     * Writes the address to {@code out} from {@code off} (at least {@link #MAX_TEXT} bytes of room); returns the
     * number of bytes written.
     *
     * @param ipVersion 4: {@code lo} holds the address as {@code ::ffff:a.b.c.d}; otherwise the full 128 bits
     */
    public static int write(int ipVersion, long hi, long lo, byte[] out, int off) {
        return ipVersion == 4 ? writeIpv4((int) lo, out, off) : writeIpv6(hi, lo, out, off);
    }

    /** Writes the dotted quad of {@code a} (network order in an int); returns the number of bytes written. */
    public static int writeIpv4(int a, byte[] out, int off) {
        int p = off;
        for (int shift = 24; shift >= 0; shift -= 8) {
            int b = (a >>> shift) & 0xff;
            if (b >= 100) {
                out[p++] = (byte) ('0' + b / 100);
            }
            if (b >= 10) {
                out[p++] = (byte) ('0' + (b / 10) % 10);
            }
            out[p++] = (byte) ('0' + b % 10);
            if (shift > 0) {
                out[p++] = '.';
            }
        }
        return p - off;
    }

    /** Writes the 128 bits {@code hi, lo} as IPv6 text (class comment); returns the number of bytes written. */
    public static int writeIpv6(long hi, long lo, byte[] out, int off) {
        // the first longest run of zero groups, as inet_ntop finds it; a single zero group is not compressed
        int bestStart = -1, bestLen = 0, runStart = -1;
        for (int i = 0; i < 8; i++) {
            if (group(hi, lo, i) != 0) {
                runStart = -1;
                continue;
            }
            if (runStart < 0) {
                runStart = i;
            }
            if (i - runStart + 1 > bestLen) {
                bestStart = runStart;
                bestLen = i - runStart + 1;
            }
        }
        if (bestLen < 2) {
            bestStart = -1;
        }
        // inet_ntop's test for an embedded IPv4 address: ::a.b.c.d (six zero groups) or ::ffff:a.b.c.d
        boolean dottedTail = bestStart == 0 && (bestLen == 6 || (bestLen == 5 && group(hi, lo, 5) == 0xffff));
        int p = off;
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out[p++] = ':';
                out[p++] = ':';
                i += bestLen - 1;
                continue;
            }
            if (p > off && out[p - 1] != ':') {
                out[p++] = ':';
            }
            if (i == 6 && dottedTail) {
                return p + writeIpv4((int) lo, out, p) - off;
            }
            p = hex(group(hi, lo, i), out, p);
        }
        return p - off;
    }

    /** "addr:port", with IPv6 addresses in brackets. */
    public static String endpoint(long hi, long lo, int port) {
        return endpointText(format(hi, lo), port);
    }

    /** "addr:port" from an address already in text form (IPv6 in brackets). */
    public static String endpointText(String address, int port) {
        return address.indexOf(':') >= 0 ? "[" + address + "]:" + port : address + ":" + port;
    }

    private static int group(long hi, long lo, int i) {
        long word = i < 4 ? hi : lo;
        return (int) (word >>> (48 - 16 * (i & 3))) & 0xffff;
    }

    private static int hex(int v, byte[] out, int p) {
        boolean started = false;
        for (int shift = 12; shift >= 0; shift -= 4) {
            int d = (v >>> shift) & 0xf;
            if (d != 0 || started || shift == 0) {
                out[p++] = HEX[d];
                started = true;
            }
        }
        return p;
    }
}
