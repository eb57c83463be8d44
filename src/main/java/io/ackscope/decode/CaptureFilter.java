package io.ackscope.decode;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A capture filter in the syntax tcpdump users type (pcap-filter(7)), for the IP and transport fields the decoder
 * reads, evaluated on a decoded packet: no libpcap, no per-packet native call.
 *
 * <ul>
 *   <li>Primitives: {@code [ip|ip6|tcp|udp] [src|dst|src or dst|src and dst] host|net|port|portrange ID}, the
 *       protocols {@code ip ip6 tcp udp icmp icmp6} alone, {@code less N} and {@code greater N} (frame length).
 *       {@code net} takes {@code A/len} or a dotted prefix ({@code 10.1}); an ID alone is a host.</li>
 *   <li>{@code not ! and && or ||} and parentheses. As in pcap-filter, {@code not} binds tightest and {@code and} and
 *       {@code or} have the same precedence, left to right; an ID after {@code and}/{@code or} without qualifiers
 *       takes those of the primitive before it ({@code port 80 or 443}).</li>
 *   <li>{@code port} without a protocol means TCP or UDP; ports match the packet's own transport header only (not
 *       one quoted in an ICMP error, not a fragment after the first), as BPF reads them.</li>
 * </ul>
 * Names are refused (no DNS lookups: a capture is analysed offline). Unlike BPF, which reads fixed offsets from the
 * link header, this filter sees through VLAN tags and MPLS and tests the IP header the analysis uses (the innermost
 * of a tunnel); on plain Ethernet, Linux cooked and raw IP captures the two select the same packets.
 */
public final class CaptureFilter {

    /** A node of the parsed filter: the decoded packet, the bytes it was decoded from, its original length. */
    @FunctionalInterface
    private interface Node {
        boolean test(PacketDecoder d, byte[] frame, long frameLength);
    }

    private enum Type { HOST, NET, PORT, PORTRANGE }

    private enum Dir { SRC, DST, EITHER, BOTH }

    /** Qualifiers of a primitive, remembered for an ID that follows {@code and}/{@code or} alone. */
    private record Qualifiers(String proto, Dir dir, Type type) {
    }

    private final String text;
    private final List<String> tokens = new ArrayList<>();
    /** Where each token starts in {@link #text} (0-based), for error messages. */
    private final List<Integer> starts = new ArrayList<>();
    private final Node root;
    private int at;
    private Qualifiers last;

    private CaptureFilter(String text) {
        this.text = text;
        tokenize();
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException("empty capture filter");
        }
        root = expression();
        if (at < tokens.size()) {
            throw failAt(at, "unexpected '" + tokens.get(at) + "'");
        }
    }

    /** Words, parentheses, and {@code && || !} as {@code and or not}, each with its offset. */
    private void tokenize() {
        int i = 0, n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '(' || c == ')') {
                add(String.valueOf(c), i++);
            } else if (c == '!') {
                add("not", i++);
            } else if ((c == '&' || c == '|') && i + 1 < n && text.charAt(i + 1) == c) {
                add(c == '&' ? "and" : "or", i);
                i += 2;
            } else {
                int start = i;
                while (i < n && !Character.isWhitespace(text.charAt(i)) && "()!".indexOf(text.charAt(i)) < 0
                        && !text.startsWith("&&", i) && !text.startsWith("||", i)) {
                    i++;
                }
                add(text.substring(start, i), start);
            }
        }
    }

    private void add(String token, int start) {
        tokens.add(token);
        starts.add(start);
    }

    /** Parses {@code text}; {@link IllegalArgumentException} naming the word it could not read. */
    public static CaptureFilter parse(String text) {
        return new CaptureFilter(text);
    }

    /**
     * Whether the packet the decoder just decoded passes.
     *
     * @param frame       the buffer given to {@link PacketDecoder#decode} (the decoder's offsets index it)
     * @param frameLength the packet's original length
     */
    public boolean matches(PacketDecoder d, byte[] frame, long frameLength) {
        return root.test(d, frame, frameLength);
    }

    /**
     * The transport protocol as BPF reads it: IPv4's protocol field, or the IPv6 fixed header's next header (pcap's
     * {@code ip6 proto}, which "does not chase the protocol header chain"); -1 without IP.
     */
    static int protocol(PacketDecoder d, byte[] frame) {
        if (d.ipVersion() == 4) {
            return d.ipProtocol();
        }
        int off = d.firstIpv6Offset();
        if (d.ipVersion() == 6 && off >= 0 && off + 7 <= d.captureEnd()) {
            return frame[off + 6] & 0xff;
        }
        return -1;
    }

    @Override
    public String toString() {
        return text;
    }

    /** An error about the token just read (or the end, when there is none). */
    private IllegalArgumentException fail(String what) {
        return failAt(Math.max(0, at - 1), what);
    }

    /**
     * An error naming the filter and the position (1-based character) of token {@code token}, or of the end of the
     * text when {@code token} is past the last one.
     */
    private IllegalArgumentException failAt(int token, String what) {
        int position = token < starts.size() ? starts.get(token) + 1 : text.length() + 1;
        return new IllegalArgumentException("capture filter '" + text + "': at character " + position + ": " + what);
    }

    private String peek() {
        return at < tokens.size() ? tokens.get(at).toLowerCase(Locale.ROOT) : null;
    }

    private String next(String expected) {
        if (at >= tokens.size()) {
            throw failAt(at, "expected " + expected + " at the end");
        }
        return tokens.get(at++);
    }

    private Node expression() {
        Node left = unary();
        while ("and".equals(peek()) || "or".equals(peek())) {
            boolean and = tokens.get(at++).equalsIgnoreCase("and");
            Node l = left;
            Node r = unary();
            left = and ? (d, f, n) -> l.test(d, f, n) && r.test(d, f, n) : (d, f, n) -> l.test(d, f, n) || r.test(d, f, n);
        }
        return left;
    }

    private Node unary() {
        if ("not".equals(peek())) {
            at++;
            Node inner = unary();
            return (d, f, n) -> !inner.test(d, f, n);
        }
        if ("(".equals(peek())) {
            at++;
            Node inner = expression();
            if (!")".equals(peek())) {
                throw failAt(at, "expected ')'");
            }
            at++;
            return inner;
        }
        return primitive();
    }

    private Node primitive() {
        String w = peek();
        if (w == null) {
            throw failAt(at, "expected a primitive at the end");
        }
        if (w.equals("less") || w.equals("greater")) {
            at++;
            long len = number(next("a length"), 0, Integer.MAX_VALUE);
            return w.equals("less") ? (d, f, n) -> n <= len : (d, f, n) -> n >= len;
        }
        String proto = null;
        if (List.of("ip", "ip6", "tcp", "udp", "icmp", "icmp6").contains(w)) {
            proto = w;
            at++;
        }
        Dir dir = direction();
        Type type = type();
        if (type == null && dir == null) {
            if (proto != null) {
                return protocol(proto); // "tcp" alone, or "tcp and ..."
            }
            if (last == null) {
                type = Type.HOST;
            } else {
                proto = last.proto();
                dir = last.dir();
                type = last.type();
            }
        }
        if (type == null) {
            type = Type.HOST;
        }
        if (proto != null && (proto.equals("icmp") || proto.equals("icmp6"))) {
            throw fail(proto + " takes no host, net or port");
        }
        last = new Qualifiers(proto, dir == null ? Dir.EITHER : dir, type);
        String id = next("an address or port");
        Node value = switch (type) {
            case HOST, NET -> address(id, type, last.dir(), proto);
            case PORT -> port(number(id, 0, 65535), number(id, 0, 65535), last.dir(), proto);
            case PORTRANGE -> portRange(id, last.dir(), proto);
        };
        return value;
    }

    private Dir direction() {
        String w = peek();
        if (!"src".equals(w) && !"dst".equals(w)) {
            return null;
        }
        at++;
        Dir dir = w.equals("src") ? Dir.SRC : Dir.DST;
        // "src or dst host X" / "src and dst host X"
        if (("or".equals(peek()) || "and".equals(peek())) && at + 1 < tokens.size()
                && tokens.get(at + 1).equalsIgnoreCase(w.equals("src") ? "dst" : "src")) {
            dir = tokens.get(at).equalsIgnoreCase("or") ? Dir.EITHER : Dir.BOTH;
            at += 2;
        }
        return dir;
    }

    private Type type() {
        String w = peek();
        if (w == null) {
            return null;
        }
        Type t = switch (w) {
            case "host" -> Type.HOST;
            case "net" -> Type.NET;
            case "port" -> Type.PORT;
            case "portrange" -> Type.PORTRANGE;
            default -> null;
        };
        if (t != null) {
            at++;
        }
        return t;
    }

    private static Node protocol(String proto) {
        return switch (proto) {
            case "ip" -> (d, f, n) -> d.ipVersion() == 4;
            case "ip6" -> (d, f, n) -> d.ipVersion() == 6;
            case "tcp" -> (d, f, n) -> protocol(d, f) == IpProtocols.TCP;
            case "udp" -> (d, f, n) -> protocol(d, f) == IpProtocols.UDP;
            case "icmp" -> (d, f, n) -> d.ipVersion() == 4 && protocol(d, f) == IpProtocols.ICMP;
            default -> (d, f, n) -> d.ipVersion() == 6 && protocol(d, f) == IpProtocols.ICMPV6;
        };
    }

    private long number(String s, long min, long max) {
        try {
            long v = Long.parseLong(s);
            if (v >= min && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw fail("'" + s + "' is not a number from " + min + " to " + max + " (names are not looked up)");
    }

    private Node portRange(String id, Dir dir, String proto) {
        int dash = id.indexOf('-');
        if (dash <= 0) {
            throw fail("portrange wants LOW-HIGH, not '" + id + "'");
        }
        long lo = number(id.substring(0, dash), 0, 65535);
        long hi = number(id.substring(dash + 1), 0, 65535);
        return port(Math.min(lo, hi), Math.max(lo, hi), dir, proto);
    }

    private Node port(long lo, long hi, Dir dir, String proto) {
        if (proto != null && (proto.equals("ip") || proto.equals("ip6"))) {
            Node ports = port(lo, hi, dir, null);
            Node version = protocol(proto);
            return (d, f, n) -> version.test(d, f, n) && ports.test(d, f, n);
        }
        boolean tcp = proto == null || proto.equals("tcp");
        boolean udp = proto == null || proto.equals("udp");
        return (d, f, n) -> {
            int p = protocol(d, f);
            boolean own = (tcp && p == IpProtocols.TCP && d.hasTcpPorts() && !d.quotedTcp())
                    || (udp && p == IpProtocols.UDP && d.hasUdpPorts() && !d.quotedUdp());
            if (!own) {
                return false;
            }
            boolean s = d.srcPort() >= lo && d.srcPort() <= hi;
            boolean t = d.dstPort() >= lo && d.dstPort() <= hi;
            return select(dir, s, t);
        };
    }

    private static boolean select(Dir dir, boolean src, boolean dst) {
        return switch (dir) {
            case SRC -> src;
            case DST -> dst;
            case EITHER -> src || dst;
            case BOTH -> src && dst;
        };
    }

    private Node address(String id, Type type, Dir dir, String proto) {
        if (proto != null && !proto.equals("ip") && !proto.equals("ip6")) {
            throw fail(proto + " " + type.name().toLowerCase(Locale.ROOT) + " is not a qualifier pcap takes");
        }
        String addr = id;
        int prefix = -1;
        int slash = id.indexOf('/');
        if (slash >= 0) {
            addr = id.substring(0, slash);
            prefix = (int) number(id.substring(slash + 1), 0, 128);
        }
        boolean v4 = addr.matches("\\d{1,3}(\\.\\d{1,3}){0,3}");
        if (type == Type.NET && v4 && slash < 0) {
            int parts = addr.split("\\.").length;  // "10.1" is 10.1.0.0/16, as pcap reads a dotted net
            prefix = 8 * parts;
            addr = addr + ".0".repeat(4 - parts);
        }
        byte[] bytes = literal(addr, v4);
        int bits = bytes.length * 8;
        if (prefix < 0) {
            prefix = bits;
        }
        if (prefix > bits || (type == Type.HOST && prefix != bits)) {
            throw fail("'" + id + "' is not a " + (type == Type.HOST ? "host address" : "network"));
        }
        if ((proto != null && proto.equals("ip") && !v4) || (proto != null && proto.equals("ip6") && v4)) {
            throw fail(proto + " does not take '" + id + "'");
        }
        long wantHi = v4 ? 0 : be64(bytes, 0);
        long wantLo = v4 ? PacketDecoder.IPV4_MAPPED_PREFIX | be32(bytes) : be64(bytes, 8);
        int maskBits = v4 ? 96 + prefix : prefix;
        long maskHi = mask(maskBits, 0);
        long maskLo = mask(maskBits, 64);
        int version = v4 ? 4 : 6;
        boolean arp = v4 && proto == null;   // pcap's host and net also match ARP and RARP addresses
        long want4 = v4 ? be32(bytes) : 0;
        long mask4 = v4 && prefix > 0 ? (0xffff_ffffL << (32 - prefix)) & 0xffff_ffffL : 0;
        return (d, f, n) -> {
            if (arp && isArp(d, f)) {
                int a = d.networkOffset();
                boolean s = (u32(f, a + 14) & mask4) == (want4 & mask4);
                boolean t = (u32(f, a + 24) & mask4) == (want4 & mask4);
                return select(dir, s, t);
            }
            if (d.ipVersion() != version) {
                return false;
            }
            boolean s = (d.srcHi() & maskHi) == (wantHi & maskHi) && (d.srcLo() & maskLo) == (wantLo & maskLo);
            boolean t = (d.dstHi() & maskHi) == (wantHi & maskHi) && (d.dstLo() & maskLo) == (wantLo & maskLo);
            return select(dir, s, t);
        };
    }

    /** The leading {@code bits} of a 128-bit mask, in the 64-bit half starting at bit {@code from}. */
    private static long mask(int bits, int from) {
        int in = Math.max(0, Math.min(64, bits - from));
        return in == 0 ? 0 : in == 64 ? -1L : -1L << (64 - in);
    }

    private byte[] literal(String addr, boolean v4) {
        boolean v6 = !v4 && addr.contains(":") && addr.matches("[0-9A-Fa-f:.]+");
        if (!v4 && !v6) {
            throw fail("'" + addr + "' is not an IP address (names are not looked up)");
        }
        try {
            return InetAddress.getByName(addr).getAddress(); // a literal: parsed, not resolved
        } catch (UnknownHostException e) {
            throw fail("'" + addr + "' is not an IP address");
        }
    }

    /** An Ethernet/IPv4 ARP or RARP packet with both protocol addresses captured. */
    private static boolean isArp(PacketDecoder d, byte[] f) {
        int a = d.networkOffset();
        return (d.etherType() == 0x0806 || d.etherType() == 0x8035) && a >= 0 && a + 28 <= d.captureEnd()
                && (f[a + 4] & 0xff) == 6 && (f[a + 5] & 0xff) == 4;
    }

    private static long u32(byte[] b, int off) {
        return ((b[off] & 0xffL) << 24) | ((b[off + 1] & 0xffL) << 16) | ((b[off + 2] & 0xffL) << 8)
                | (b[off + 3] & 0xffL);
    }

    private static long be32(byte[] b) {
        return ((b[0] & 0xffL) << 24) | ((b[1] & 0xffL) << 16) | ((b[2] & 0xffL) << 8) | (b[3] & 0xffL);
    }

    private static long be64(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xffL);
        }
        return v;
    }
}
