package io.ackscope.tcp;

/** Text forms of the two-long addresses used by the decoder (IPv4 as IPv4-mapped IPv6). */
public final class Addresses {
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

    /** Dotted quad for IPv4, RFC 5952 text (longest zero run compressed, lower case) for IPv6. */
    public static String format(long hi, long lo) {
        if (isIpv4(hi, lo)) {
            return ((lo >>> 24) & 0xff) + "." + ((lo >>> 16) & 0xff) + "." + ((lo >>> 8) & 0xff) + "." + (lo & 0xff);
        }
        int[] g = new int[8];
        for (int i = 0; i < 4; i++) {
            g[i] = (int) ((hi >>> (48 - 16 * i)) & 0xffff);
            g[i + 4] = (int) ((lo >>> (48 - 16 * i)) & 0xffff);
        }
        int bestStart = -1, bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen && j - i >= 2) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
        return sb.toString();
    }

    /** "addr:port", with IPv6 addresses in brackets. */
    public static String endpoint(long hi, long lo, int port) {
        return endpointText(format(hi, lo), port);
    }

    /** "addr:port" from an address already in text form (IPv6 in brackets). */
    public static String endpointText(String address, int port) {
        return address.indexOf(':') >= 0 ? "[" + address + "]:" + port : address + ":" + port;
    }
}
