package io.ackscope.fields;

import com.beust.jcommander.ParameterException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code fields -Y FILTER}: the part of Wireshark's display-filter language that the fields {@code fields} knows
 * can answer, with Wireshark's meaning, so that {@code -Y} selects the frames {@code tshark -Y} selects.
 *
 * <ul>
 *   <li>A field alone tests that the frame has it ({@code tcp.analysis.retransmission}); the protocol names
 *       {@code ip}, {@code ipv6}, {@code tcp} and {@code udp} test for that header, {@code http} for a frame where
 *       tshark shows HTTP.</li>
 *   <li>{@code field contains "text"} (a case-sensitive substring of the field as printed, for
 *       {@code http.request.uri} and {@code http.host}).</li>
 *   <li>Comparisons {@code == != > < >= <=} and their words {@code eq ne gt lt ge le}; numbers in decimal or
 *       {@code 0x} hex (as {@code tcp.flags} prints), addresses with an optional {@code /prefix} for a subnet.</li>
 *   <li>{@code && and || or ! not} and parentheses; {@code and} binds tighter than {@code or}.</li>
 *   <li>Set membership {@code tcp.stream in {1, 2, 10..20}} (commas, as Wireshark 4.0 requires, or blanks, as
 *       older filters were written) and a bitwise test {@code tcp.flags & 0x02}, alone (non-zero) or compared
 *       ({@code tcp.flags & 0x12 == 0x12}).</li>
 *   <li>Wireshark's either-side fields {@code ip.addr}, {@code ipv6.addr}, {@code tcp.port}, {@code udp.port}
 *       (true if the source or the destination matches; {@code !=} is true when the frame has the field and
 *       neither side matches, as Wireshark 3.6 and later read it), and the flag bits {@code tcp.flags.fin syn reset push ack urg ece cwr}.</li>
 * </ul>
 * Anything else is a usage error naming the word and its position.
 */
public final class DisplayFilter {

    /** A field's cell text for the current frame, rendered by its {@link FrameFields.CellWriter}. */
    private static final class Cells {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        private final TsvOutput out = new TsvOutput(bytes, 256);

        String text(FrameFields.Field field, FrameFields.Frame frame) throws IOException {
            bytes.reset();
            field.writer().write(frame, out);
            out.flush();
            return bytes.toString(StandardCharsets.US_ASCII);
        }
    }

    /** A node of the parsed expression. */
    private interface Node {
        public boolean test(FrameFields.Frame f, Cells cells) throws IOException;
    }

    /** Either-side fields and what they stand for. */
    private static final Map<String, List<String>> EITHER = Map.of(
            "ip.addr", List.of("ip.src", "ip.dst"),
            "ipv6.addr", List.of("ipv6.src", "ipv6.dst"),
            "tcp.port", List.of("tcp.srcport", "tcp.dstport"),
            "udp.port", List.of("udp.srcport", "udp.dstport"));
    /** Protocol names and the field whose presence shows the header. */
    private static final Map<String, String> PROTOCOLS = Map.of(
            "ip", "ip.src", "ipv6", "ipv6.src", "tcp", "tcp.srcport", "udp", "udp.srcport", "http", "http");
    private static final List<String> FLAG_BITS = List.of("fin", "syn", "reset", "push", "ack", "urg", "ece", "cwr");
    private static final List<String> OPERATORS = List.of("==", "!=", ">=", "<=", ">", "<");

    private final String text;
    private final Node root;
    private final Cells cells = new Cells();
    private FrameFields.Pass pass = FrameFields.Pass.READ;
    // parser state
    private final List<String> tokens = new ArrayList<>();
    private final List<Integer> positions = new ArrayList<>();
    private int at;

    private DisplayFilter(String text) {
        this.text = text;
        tokenize();
        this.root = or();
        if (at < tokens.size()) {
            throw error("unexpected '" + tokens.get(at) + "'", at);
        }
    }

    /** Parses {@code text}; throws {@link ParameterException} naming what and where it could not read. */
    public static DisplayFilter parse(String text) {
        return new DisplayFilter(text);
    }

    /** The pass the filter's fields need. */
    public FrameFields.Pass pass() {
        return pass;
    }

    /** Whether the current frame passes. */
    public boolean test(FrameFields.Frame frame) throws IOException {
        return root.test(frame, cells);
    }

    private void tokenize() {
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            int start = i;
            if ("(){},".indexOf(c) >= 0) {
                i++;
            } else if (text.startsWith("&&", i) || text.startsWith("||", i)) {
                i += 2;
            } else if (c == '&') {
                i++;
            } else if ("=!<>".indexOf(c) >= 0) {
                i += i + 1 < text.length() && text.charAt(i + 1) == '=' ? 2 : 1;
            } else if (c == '"') {
                int end = text.indexOf('"', i + 1);
                if (end < 0) {
                    throw error("unterminated string", start);
                }
                i = end + 1;
            } else {
                while (i < text.length() && !Character.isWhitespace(text.charAt(i))
                        && "(){},=!<>&|\"".indexOf(text.charAt(i)) < 0) {
                    i++;
                }
                if (i == start) {
                    throw error("unexpected '" + c + "'", start);
                }
            }
            tokens.add(text.substring(start, i));
            positions.add(start);
        }
    }

    private ParameterException error(String what, int tokenOrOffset) {
        int offset = tokenOrOffset < positions.size() && tokens.size() == positions.size()
                ? positions.get(tokenOrOffset) : tokenOrOffset;
        return new ParameterException("-Y: " + what + " at character " + (offset + 1) + " of '" + text + "'");
    }

    private ParameterException errorAtEnd(String what) {
        return new ParameterException("-Y: " + what + " at the end of '" + text + "'");
    }

    private String peek() {
        return at < tokens.size() ? tokens.get(at).toLowerCase(Locale.ROOT) : null;
    }

    private Node or() {
        Node left = and();
        while ("||".equals(peek()) || "or".equals(peek())) {
            at++;
            Node l = left;
            Node r = and();
            left = (f, c) -> l.test(f, c) || r.test(f, c);
        }
        return left;
    }

    private Node and() {
        Node left = not();
        while ("&&".equals(peek()) || "and".equals(peek())) {
            at++;
            Node l = left;
            Node r = not();
            left = (f, c) -> l.test(f, c) && r.test(f, c);
        }
        return left;
    }

    private Node not() {
        if ("!".equals(peek()) || "not".equals(peek())) {
            at++;
            Node inner = not();
            return (f, c) -> !inner.test(f, c);
        }
        if ("(".equals(peek())) {
            at++;
            Node inner = or();
            if (!")".equals(peek())) {
                throw at < tokens.size() ? error("expected ')'", at) : errorAtEnd("expected ')'");
            }
            at++;
            return inner;
        }
        return comparison();
    }

    private Node comparison() {
        if (at >= tokens.size()) {
            throw errorAtEnd("expected a field");
        }
        int fieldToken = at;
        String name = tokens.get(at++);
        Operand operand = operand(name, fieldToken);
        if ("&".equals(peek())) {
            at++;
            if (at >= tokens.size()) {
                throw errorAtEnd("expected a mask after '&'");
            }
            BigDecimal mask = Value.number(tokens.get(at));
            if (mask == null || mask.scale() > 0 || mask.signum() < 0) {
                throw error("not a mask: '" + tokens.get(at) + "'", at);
            }
            at++;
            operand = operand.masked(mask.longValueExact());
        }
        Operand field = operand;
        if ("in".equals(peek())) {
            at++;
            List<Value[]> set = set();
            return (f, c) -> field.in(f, c, set);
        }
        String op = peek() == null ? null : wordOperator(peek());
        if (op == null) {
            return field.mask() >= 0 ? (f, c) -> field.maskedNonZero(f, c) : field::present;
        }
        at++;
        if (at >= tokens.size()) {
            throw errorAtEnd("expected a value after '" + op + "'");
        }
        Value value = Value.parse(tokens.get(at), () -> error("not a number, address or string: '"
                + tokens.get(at) + "'", at));
        at++;
        if (op.equals("!=")) {
            // Wireshark 3.6+: "all not equal", and like every comparison false when the frame lacks the field
            return (f, c) -> field.present(f, c) && !field.matches(f, c, "==", value);
        }
        return (f, c) -> field.matches(f, c, op, value);
    }

    /** {@code {a b c}} or {@code {a, b, c}}, each element a value or a range {@code lo..hi}; after {@code in}. */
    private List<Value[]> set() {
        if (!"{".equals(peek())) {
            throw at < tokens.size() ? error("expected '{' after 'in'", at) : errorAtEnd("expected '{' after 'in'");
        }
        at++;
        List<Value[]> set = new ArrayList<>();
        while (!"}".equals(peek())) {
            if (at >= tokens.size()) {
                throw errorAtEnd("expected '}'");
            }
            String t = tokens.get(at);
            int token = at;
            java.util.function.Supplier<ParameterException> bad = () -> error("not a number, address or string: '"
                    + tokens.get(token) + "'", token);
            int dots = t.startsWith("\"") ? -1 : t.indexOf("..");
            if (dots > 0) {
                set.add(new Value[] {Value.parse(t.substring(0, dots), bad), Value.parse(t.substring(dots + 2), bad)});
            } else {
                Value v = Value.parse(t, bad);
                set.add(new Value[] {v, v});
            }
            at++;
            if (",".equals(peek())) {
                at++;
            }
        }
        at++;
        if (set.isEmpty()) {
            throw error("empty set", at - 1);
        }
        return set;
    }

    private static String wordOperator(String t) {
        return switch (t) {
            case "eq" -> "==";
            case "ne" -> "!=";
            case "gt" -> ">";
            case "lt" -> "<";
            case "ge" -> ">=";
            case "le" -> "<=";
            case "contains" -> "contains";
            default -> OPERATORS.contains(t) ? t : null;
        };
    }

    /** What a name in the filter reads: one or two fields, or a bit of tcp.flags. */
    private Operand operand(String name, int token) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (PROTOCOLS.containsKey(lower)) {
            return new Operand(List.of(field(PROTOCOLS.get(lower))), -1, -1);
        }
        if (EITHER.containsKey(lower)) {
            return new Operand(EITHER.get(lower).stream().map(this::field).toList(), -1, -1);
        }
        if (lower.startsWith("tcp.flags.") && FLAG_BITS.contains(lower.substring("tcp.flags.".length()))) {
            return new Operand(List.of(field("tcp.flags")), FLAG_BITS.indexOf(lower.substring(10)), -1);
        }
        FrameFields.Field f = FrameFields.get(lower);
        if (f == null) {
            throw error("unknown field '" + name + "' (fields -e list shows the known ones; also ip, ipv6, tcp, udp, http, "
                    + "ip.addr, ipv6.addr, tcp.port, udp.port, tcp.flags.syn and the other flag bits)", token);
        }
        return new Operand(List.of(track(f)), -1, -1);
    }

    private FrameFields.Field field(String name) {
        return track(FrameFields.get(name));
    }

    private FrameFields.Field track(FrameFields.Field f) {
        if (f.pass().compareTo(pass) > 0) {
            pass = f.pass();
        }
        return f;
    }

    /**
     * One or more fields read as one (either side matches), one bit of a flags field when {@code bit >= 0}, or a
     * field ANDed with {@code mask} when {@code mask >= 0} ({@code tcp.flags & 0x02}).
     */
    private record Operand(List<FrameFields.Field> fields, int bit, long mask) {
        Operand masked(long m) {
            return new Operand(fields, bit, m);
        }

        /** The cell as the operand reads it: the bit or the masked value for numbers, else the text. */
        private static String read(String t, int bit, long mask) {
            if (bit < 0 && mask < 0) {
                return t;
            }
            BigDecimal n = Value.number(t);
            if (n == null) {
                return "";
            }
            long v = n.longValue();
            return Long.toString(bit >= 0 ? (v >> bit) & 1 : v & mask);
        }

        /** {@code field & mask} alone: true when some side has a non-zero masked value. */
        boolean maskedNonZero(FrameFields.Frame f, Cells cells) throws IOException {
            for (FrameFields.Field field : fields) {
                String t = read(cells.text(field, f), bit, mask);
                if (!t.isEmpty() && !t.equals("0")) {
                    return true;
                }
            }
            return false;
        }

        /** {@code field in {...}}: some side equals a value or falls in a range of the set. */
        boolean in(FrameFields.Frame f, Cells cells, List<Value[]> set) throws IOException {
            for (FrameFields.Field field : fields) {
                String t = cells.text(field, f);
                if (t.isEmpty()) {
                    continue;
                }
                t = read(t, bit, mask);
                for (Value[] range : set) {
                    if (range[0] == range[1] ? range[0].compare(t, "==")
                            : range[0].compare(t, ">=") && range[1].compare(t, "<=")) {
                        return true;
                    }
                }
            }
            return false;
        }

        boolean present(FrameFields.Frame f, Cells cells) throws IOException {
            for (FrameFields.Field field : fields) {
                String t = cells.text(field, f);
                if (!t.isEmpty()) {
                    return true; // a flag bit is there whenever tcp.flags is, set or not, as in Wireshark
                }
            }
            return false;
        }

        boolean matches(FrameFields.Frame f, Cells cells, String op, Value value) throws IOException {
            for (FrameFields.Field field : fields) {
                String t = cells.text(field, f);
                if (t.isEmpty()) {
                    continue;
                }
                t = read(t, bit, mask);
                if (value.compare(t, op)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A literal of the filter: a number, an address or subnet, or a string. */
    private record Value(String text, BigDecimal number, byte[] address, int prefix) {

        public static Value parse(String token, java.util.function.Supplier<ParameterException> bad) {
            if (token.startsWith("\"")) {
                return new Value(token.substring(1, token.length() - 1), null, null, -1);
            }
            BigDecimal n = number(token);
            if (n != null) {
                return new Value(token, n, null, -1);
            }
            int slash = token.indexOf('/');
            String addr = slash >= 0 ? token.substring(0, slash) : token;
            byte[] a = literalAddress(addr);
            if (a == null) {
                throw bad.get();
            }
            int prefix = a.length * 8;
            if (slash >= 0) {
                try {
                    prefix = Integer.parseInt(token.substring(slash + 1));
                } catch (NumberFormatException e) {
                    throw bad.get();
                }
                if (prefix < 0 || prefix > a.length * 8) {
                    throw bad.get();
                }
            }
            return new Value(token, null, a, prefix);
        }

        /** A decimal or {@code 0x} hex number, or null. */
        static BigDecimal number(String s) {
            try {
                if (s.startsWith("0x") || s.startsWith("0X")) {
                    return new BigDecimal(new java.math.BigInteger(s.substring(2), 16));
                }
                return new BigDecimal(s);
            } catch (NumberFormatException e) {
                return null;
            }
        }

        /** The bytes of an IPv4 or IPv6 literal, or null; never a name lookup. */
        static byte[] literalAddress(String s) {
            boolean v4 = s.matches("\\d{1,3}(\\.\\d{1,3}){3}");
            boolean v6 = s.contains(":") && s.matches("[0-9A-Fa-f:.]+");
            if (!v4 && !v6) {
                return null;
            }
            try {
                return InetAddress.getByName(s).getAddress(); // a literal: parsed, not resolved
            } catch (UnknownHostException e) {
                return null;
            }
        }

        boolean compare(String cell, String op) {
            if (address != null && !op.equals("contains")) {
                byte[] a = literalAddress(cell);
                return a != null && a.length == address.length && op.equals("==") && inPrefix(a);
            }
            if (number != null && !op.equals("contains")) {
                BigDecimal c = number(cell);
                if (c == null) {
                    return false;
                }
                int cmp = c.compareTo(number);
                return switch (op) {
                    case "==" -> cmp == 0;
                    case ">" -> cmp > 0;
                    case "<" -> cmp < 0;
                    case ">=" -> cmp >= 0;
                    default -> cmp <= 0;
                };
            }
            if (op.equals("contains")) {
                return cell.contains(text); // case-sensitive, as Wireshark's
            }
            int cmp = cell.compareTo(text);
            return op.equals("==") ? cmp == 0 : op.equals(">") ? cmp > 0 : op.equals("<") ? cmp < 0
                    : op.equals(">=") ? cmp >= 0 : cmp <= 0;
        }

        private boolean inPrefix(byte[] a) {
            for (int bit = 0; bit < prefix; bit++) {
                int mask = 0x80 >> (bit & 7);
                if ((a[bit >> 3] & mask) != (address[bit >> 3] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }
}
