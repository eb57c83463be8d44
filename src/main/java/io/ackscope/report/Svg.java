package io.ackscope.report;

import java.util.List;
import java.util.function.DoubleUnaryOperator;
import java.util.function.IntToDoubleFunction;

/**
 * The page's charts, drawn as inline SVG: nothing to load, nothing to run, and they print. Styling comes from
 * classes defined in the page's style sheet; every text in a chart goes through {@link Text}.
 */
final class Svg {
    private Svg() {
    }

    /** The delayed-ACK timers marked on every latency axis that reaches them, µs. */
    private static final long[] TIMERS = {40_000, 200_000};
    private static final String[] TIMER_LABELS = {"40 ms timer", "200 ms timer"};

    // ---- latency distribution: log-scale histogram with its CDF ---------------------------------------------

    static void distribution(StringBuilder sb, ReportData.Distribution d) {
        final int w = 560, h = 250, left = 50, right = 40, top = 26, bottom = 34;
        final double pw = w - left - right, ph = h - top - bottom;
        open(sb, w, h, "chart dist", d.label() + ": histogram and cumulative distribution, log-scale time axis");
        if (d.count() == 0) {
            sb.append("<text x=\"").append(w / 2).append("\" y=\"").append(h / 2)
                    .append("\" text-anchor=\"middle\" class=\"empty\">no values</text></svg>");
            return;
        }
        int first = d.firstBin(), last = first + d.bins().length - 1;
        int decLo = (int) Math.floor(Math.log10(Math.max(1, LatencyBins.EDGES[first])));
        int decHi = Math.max(6, (int) Math.ceil(Math.log10(LatencyBins.upper(last)) - 1e-9));
        decLo = Math.max(0, Math.min(decLo, decHi - 3));
        // Values below 1 µs (bin 0) get the half decade left of 1 µs.
        final double lo = first == 0 ? -0.3 : decLo, span = decHi - lo;
        DoubleUnaryOperator x = v -> left + (Math.log10(Math.max(v, Math.pow(10, lo))) - lo)
                / span * pw;
        long maxCount = 0;
        for (long c : d.bins()) {
            maxCount = Math.max(maxCount, c);
        }
        double yBase = top + ph;

        for (int dec = decLo; dec <= decHi; dec++) {
            double gx = x.applyAsDouble(Math.pow(10, dec));
            line(sb, gx, top, gx, yBase, "grid");
            text(sb, gx, yBase + 14, "middle", "tick", Format.tick((long) Math.pow(10, dec)));
        }
        line(sb, left, yBase, left + pw, yBase, "axis");
        for (int i = 0; i <= 2; i++) {
            double gy = yBase - i * ph / 2;
            text(sb, left + pw + 4, gy + 4, "start", "tick", (i * 50) + "%");
        }
        text(sb, left - 4, top - 10, "start", "tick", "count");
        text(sb, left - 4, yBase - ph * 0.9 + 4, "end", "tick", Format.count(maxCount));
        text(sb, left - 4, yBase + 4, "end", "tick", "0");

        bars(sb, d, x, left, yBase, ph, maxCount);
        cdf(sb, d, x, left, yBase, ph);
        for (int i = 0; i < TIMERS.length; i++) {
            double tx = x.applyAsDouble(TIMERS[i]);
            if (TIMERS[i] < Math.pow(10, decHi)) {
                line(sb, tx, top - 4, tx, yBase, "timer");
                // 40 ms to the left of its line, 200 ms to the right: the two never meet.
                text(sb, tx + (i == 0 ? -3 : 3), top - 8, i == 0 ? "end" : "start", "timer-label",
                        i == 0 ? TIMER_LABELS[0] : "200 ms");
            }
        }
        double p50 = x.applyAsDouble(d.p50Micros()), p99 = x.applyAsDouble(d.p99Micros());
        percentileMark(sb, p50, yBase, 10, "p50");
        percentileMark(sb, p99, yBase, p99 - p50 < 22 ? 22 : 10, "p99");
        sb.append("</svg>");
    }

    /** One bar per non-empty bin, its count and share in a tooltip. */
    private static void bars(StringBuilder sb, ReportData.Distribution d, DoubleUnaryOperator x,
                             int left, double yBase, double ph, long maxCount) {
        int first = d.firstBin();
        for (int k = 0; k < d.bins().length; k++) {
            long c = d.bins()[k];
            if (c == 0) {
                continue;
            }
            int bin = first + k;
            double x0 = bin == 0 ? left : x.applyAsDouble(LatencyBins.EDGES[bin]);
            double x1 = x.applyAsDouble(LatencyBins.upper(bin));
            double bh = Math.max(1, (double) c / maxCount * ph * 0.9);
            sb.append("<rect class=\"bar\" x=\"");
            num(sb, x0 + 0.3);
            sb.append("\" y=\"");
            num(sb, yBase - bh);
            sb.append("\" width=\"");
            num(sb, Math.max(1, x1 - x0 - 0.6));
            sb.append("\" height=\"");
            num(sb, bh);
            sb.append("\"><title>");
            Text.html(sb, range(bin) + ": " + Format.count(c) + " (" + Format.percent(c, d.count()) + ")");
            sb.append("</title></rect>");
        }
    }

    /** The cumulative share of values, as a line over the bins' upper edges. */
    private static void cdf(StringBuilder sb, ReportData.Distribution d, DoubleUnaryOperator x,
                            int left, double yBase, double ph) {
        int first = d.firstBin();
        sb.append("<path class=\"cdf\" d=\"M");
        num(sb, first == 0 ? left : x.applyAsDouble(LatencyBins.EDGES[first]));
        sb.append(' ');
        num(sb, yBase);
        long cum = 0;
        for (int k = 0; k < d.bins().length; k++) {
            cum += d.bins()[k];
            sb.append(" L");
            num(sb, x.applyAsDouble(LatencyBins.upper(first + k)));
            sb.append(' ');
            num(sb, yBase - (double) cum / d.count() * ph);
        }
        sb.append("\"/>");
    }

    private static void percentileMark(StringBuilder sb, double px, double yBase, int labelUp, String label) {
        sb.append("<path class=\"pmark\" d=\"M");
        num(sb, px);
        sb.append(' ');
        num(sb, yBase - 1);
        sb.append(" l-4 -7 h8 z\"/>");
        text(sb, px, yBase - labelUp, "middle", "plabel", label);
    }

    private static String range(int bin) {
        if (bin == 0) {
            return "< 1 µs";
        }
        if (bin < 10) {
            return bin + " µs";
        }
        return Format.tick(LatencyBins.EDGES[bin]) + " – " + Format.tick(LatencyBins.upper(bin));
    }

    // ---- latency over time ----------------------------------------------------------------------------------

    static void timeline(StringBuilder sb, ReportData.Timeline t) {
        final int w = 1000, h = 330, left = 58, right = 16, top = 14, mid = 222, barsTop = 240, bottom = 300;
        final double pw = w - left - right;
        int n = t.requests().length;
        open(sb, w, h, "chart timeline", "Latency over time, log scale, with requests and stalls per interval");
        long min = Long.MAX_VALUE, max = -1;
        for (ReportData.Series s : t.series()) {
            for (long v : s.values()) {
                if (v >= 0) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
        }
        if (n == 0 || max < 0) {
            sb.append("<text x=\"500\" y=\"150\" text-anchor=\"middle\" class=\"empty\">no measurements in the "
                    + "selected window</text></svg>");
            return;
        }
        int decLo = (int) Math.floor(Math.log10(Math.max(1, min)));
        int decHi = Math.max(decLo + 1, (int) Math.ceil(Math.log10(Math.max(1, max)) + 1e-9));
        if (Math.pow(10, decHi) == max) {
            decHi++;
        }
        final int lo = decLo, span = decHi - decLo;
        DoubleUnaryOperator y = v -> mid - (Math.log10(Math.max(v, Math.pow(10, lo))) - lo)
                / span * (mid - top);
        IntToDoubleFunction x = i -> left + (double) i / n * pw;

        for (int dec = decLo; dec <= decHi; dec++) {
            double gy = y.applyAsDouble(Math.pow(10, dec));
            line(sb, left, gy, left + pw, gy, "grid");
            text(sb, left - 4, gy + 4, "end", "tick", Format.tick((long) Math.pow(10, dec)));
        }
        for (int i = 0; i < TIMERS.length; i++) {
            if (TIMERS[i] > Math.pow(10, decLo) && TIMERS[i] < Math.pow(10, decHi)) {
                double gy = y.applyAsDouble(TIMERS[i]);
                line(sb, left, gy, left + pw, gy, "timer");
                text(sb, left + pw - 2, gy - 3, "end", "timer-label", TIMER_LABELS[i]);
            }
        }
        timeTicks(sb, t, left, pw, top, bottom);
        line(sb, left, mid, left + pw, mid, "axis");
        line(sb, left, bottom, left + pw, bottom, "axis");

        series(sb, t, x, y, pw);

        requestBars(sb, t, x, left, pw, barsTop, bottom);
        sb.append("</svg>");
    }

    /**
     * Vertical grid lines and labels at round times: the first round width that gives at most 7 of them over the
     * whole axis. Where the axis breaks between two busy periods, a dashed line marks the break and is labelled
     * with the time the next period starts.
     */
    private static void timeTicks(StringBuilder sb, ReportData.Timeline t, int left, double pw, int top, int bottom) {
        int n = t.requests().length;
        long w = t.bucketMicros();
        // the width is a multiple of the bucket
        long tick = w * Math.max(1, (n + 5) / 6);
        for (long c : TimelineBuilder.WIDTHS) {
            if (c % w == 0 && (long) n * w / c <= 6) {
                tick = c;
                break;
            }
        }
        long day = 86_400_000_000L, previousDay = Math.floorDiv(t.startMicros(), day);
        for (ReportData.Period p : t.periods()) {
            double px = left + (double) p.firstBucket() / n * pw;
            long end = p.startMicros() + p.buckets() * w;
            if (p.firstBucket() > 0) {
                // a break to another day says which
                boolean otherDay = Math.floorDiv(p.startMicros(), day) != previousDay;
                line(sb, px, top, px, bottom, "break");
                text(sb, px + 3, top + 10, "start", "tick", (otherDay ? Format.time(p.startMicros()).substring(0, 10)
                        + " " : "") + label(p.startMicros(), tick));
            }
            previousDay = Math.floorDiv(p.startMicros(), day);
            for (long at = Math.floorDiv(p.startMicros() + tick - 1, tick) * tick; at <= end; at += tick) {
                double gx = px + (double) (at - p.startMicros()) / w / n * pw;
                line(sb, gx, top, gx, bottom, "grid");
                text(sb, gx, bottom + 14, "middle", "tick", label(at, tick));
            }
        }
    }

    private static String label(long at, long tick) {
        return tick % 86_400_000_000L == 0 ? Format.time(at).substring(0, 10)
                : tick % 1_000_000 == 0 ? Format.clock(at).substring(0, 8) : Format.clock(at);
    }

    /** Each latency series as a line; intervals without a value are bridged when the gap is short. */
    private static void series(StringBuilder sb, ReportData.Timeline t, IntToDoubleFunction x,
                               DoubleUnaryOperator y, double pw) {
        int n = t.requests().length;
        int si = 0;
        for (ReportData.Series s : t.series()) {
            sb.append("<path class=\"series s").append(si++).append("\" d=\"");
            // Intervals without a value are bridged when the gap is short (traffic comes in bursts); a longer
            // silence breaks the line. A lone point gets a dot.
            int lastPoint = -BRIDGE - 2;
            for (int i = 0; i < n; i++) {
                long v = s.values()[i];
                if (v < 0) {
                    continue;
                }
                boolean joined = i - lastPoint <= BRIDGE + 1 && !breaksBetween(t, lastPoint, i);
                boolean alone = !joined && nextPoint(s.values(), i) > i + BRIDGE + 1;
                sb.append(joined ? " L" : " M");
                num(sb, x.applyAsDouble(i) + pw / n / 2);
                sb.append(' ');
                num(sb, y.applyAsDouble(v));
                if (alone) {
                    sb.append(" h1.5");
                }
                lastPoint = i;
            }
            sb.append("\"><title>");
            Text.html(sb, s.label());
            sb.append("</title></path>");
        }
    }

    /** Requests and stalls per interval as bars under the lines, the scale their largest count. */
    private static void requestBars(StringBuilder sb, ReportData.Timeline t, IntToDoubleFunction x,
                                    int left, double pw, int barsTop, int bottom) {
        int n = t.requests().length;
        long maxReq = 1;
        for (int i = 0; i < n; i++) {
            maxReq = Math.max(maxReq, Math.max(t.requests()[i], t.stalls()[i]));
        }
        text(sb, left - 4, barsTop + 4, "end", "tick", Format.count(maxReq));
        text(sb, left - 4, bottom, "end", "tick", "0");
        double bw = pw / n;
        for (int i = 0; i < n; i++) {
            bar(sb, x.applyAsDouble(i), bw, bottom, (double) t.requests()[i] / maxReq * (bottom - barsTop), "req",
                    Format.clock(t.bucketStart(i)) + ": " + Format.plural(t.requests()[i],
                            "request", "requests") + ", " + Format.plural(t.stalls()[i], "stall", "stalls"));
            bar(sb, x.applyAsDouble(i), bw, bottom, (double) t.stalls()[i] / maxReq * (bottom - barsTop), "stall",
                    null);
        }
    }

    /** Whether the axis breaks between buckets {@code from} (exclusive) and {@code to}: a line is not drawn across. */
    private static boolean breaksBetween(ReportData.Timeline t, int from, int to) {
        for (ReportData.Period p : t.periods()) {
            if (p.firstBucket() > from && p.firstBucket() <= to && p.firstBucket() > 0) {
                return true;
            }
        }
        return false;
    }

    /** Longest run of empty intervals a timeline line is drawn across. */
    private static final int BRIDGE = 3;

    private static int nextPoint(long[] v, int i) {
        for (int k = i + 1; k < v.length; k++) {
            if (v[k] >= 0) {
                return k;
            }
        }
        return Integer.MAX_VALUE;
    }

    private static void bar(StringBuilder sb, double x, double bw, double base, double bh, String cls, String title) {
        if (bh <= 0) {
            return;
        }
        sb.append("<rect class=\"").append(cls).append("\" x=\"");
        num(sb, x + Math.min(0.5, bw * 0.1));
        sb.append("\" y=\"");
        num(sb, base - Math.max(1, bh));
        sb.append("\" width=\"");
        num(sb, Math.max(0.5, bw - Math.min(1, bw * 0.2)));
        sb.append("\" height=\"");
        num(sb, Math.max(1, bh));
        sb.append('"');
        if (title != null) {
            sb.append("><title>");
            Text.html(sb, title);
            sb.append("</title></rect>");
        } else {
            sb.append("/>");
        }
    }

    // ---- flow graph -----------------------------------------------------------------------------------------

    /**
     * A ladder diagram of a connection's frames: client on the left, server on the right, one arrow per frame
     * going down the page, with time since the connection's first frame, flags, relative sequence numbers and
     * lengths, the engine's marks highlighted and explained.
     */
    static void ladder(StringBuilder sb, ReportData.Ladder l, String client, String server, int id) {
        final int w = 860, timeX = 8, cx = 190, sx = 690, head = 50, rowH = 38, gapH = 24;
        int height = head + 12;
        for (ReportData.LadderRow r : l.rows()) {
            height += rowH + (r.framesSkipped() > 0 ? gapH : 0);
        }
        long shownUpTo = l.rows().isEmpty() ? 0 : l.rows().size() + skipped(l.rows());
        boolean trailing = l.frames() > shownUpTo;
        if (trailing) {
            height += gapH;
        }
        open(sb, w, height, "chart ladder", "Flow graph of the connection between " + client + " and " + server);
        sb.append("<defs><marker id=\"ah").append(id).append("\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
                + "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0 0 L10 5 L0 10 z\" "
                + "class=\"arrowhead\"/></marker></defs>");
        text(sb, timeX, 18, "start", "lhead", "time");
        text(sb, cx, 18, "middle", "lhead", "client " + client);
        text(sb, sx, 18, "middle", "lhead", "server " + server);
        line(sb, cx, 28, cx, height - 4, "lifeline");
        line(sb, sx, 28, sx, height - 4, "lifeline");
        int y = head;
        for (ReportData.LadderRow r : l.rows()) {
            if (r.framesSkipped() > 0) {
                gap(sb, w, y, gapH, r.framesSkipped());
                y += gapH;
            }
            if (!r.mark().isEmpty()) {
                sb.append("<rect class=\"hl ").append(markClass(r.mark())).append("\" x=\"2\" y=\"").append(y - 14)
                        .append("\" width=\"").append(w - 4).append("\" height=\"").append(rowH - 2).append("\"/>");
            }
            text(sb, timeX, y + 2, "start", "ltime", millis(r.relMicros()));
            if (r.deltaMicros() >= 1000 || !r.mark().isEmpty()) {
                text(sb, timeX, y + 15, "start", r.deltaMicros() >= 5000 ? "ldelta slow" : "ldelta",
                        "+" + Format.duration(r.deltaMicros()));
            }
            int from = r.fromClient() ? cx : sx, to = r.fromClient() ? sx : cx;
            sb.append("<line class=\"arrow").append(r.len() > 0 ? " data" : "").append("\" x1=\"").append(from)
                    .append("\" y1=\"").append(y).append("\" x2=\"").append(to).append("\" y2=\"").append(y + 8)
                    .append("\" marker-end=\"url(#ah").append(id).append(")\"><title>");
            Text.html(sb, "frame " + r.frame() + (r.fileIndex() > 0 ? " of file " + r.fileIndex() : "") + ", "
                    + millis(r.relMicros()) + ": " + (r.fromClient() ? "client → server" : "server → client")
                    + " [" + r.flags() + "] Seq=" + r.seq() + (r.ack() >= 0 ? " Ack=" + r.ack() : "") + " Len="
                    + r.len() + " Win=" + r.window() + " (unscaled)" + (r.note().isEmpty() ? "" : "; " + r.note()), 400);
            sb.append("</title></line>");
            String label = "[" + r.flags() + "] Seq=" + r.seq() + (r.ack() >= 0 ? " Ack=" + r.ack() : "")
                    + " Len=" + r.len();
            sb.append("<text class=\"llabel\" x=\"").append((cx + sx) / 2).append("\" y=\"").append(y - 3)
                    .append("\" text-anchor=\"middle\">");
            Text.html(sb, label, 200);
            if (!r.info().isEmpty()) {
                sb.append("<tspan class=\"linfo\"> ");
                Text.html(sb, r.info(), 40);
                sb.append("</tspan>");
            }
            sb.append("</text>");
            if (!r.note().isEmpty()) {
                text(sb, (cx + sx) / 2.0, y + 20, "middle", "lnote", Text.visible(r.note(), 100));
            }
            text(sb, sx + 14, y + 6, "start", "lframe", "#" + r.frame());
            y += rowH;
        }
        if (trailing) {
            gap(sb, w, y, gapH, l.frames() - shownUpTo);
        }
        sb.append("</svg>");
    }

    private static long skipped(List<ReportData.LadderRow> rows) {
        long s = 0;
        for (ReportData.LadderRow r : rows) {
            s += r.framesSkipped();
        }
        return s;
    }

    private static void gap(StringBuilder sb, int w, int y, int h, long frames) {
        sb.append("<rect class=\"gap\" x=\"2\" y=\"").append(y - 12).append("\" width=\"").append(w - 4)
                .append("\" height=\"").append(h - 4).append("\"/>");
        text(sb, w / 2.0, y + 2, "middle", "lgap", "⋯ " + Format.plural(frames, "frame", "frames") + " not shown ⋯");
    }

    static String markClass(String mark) {
        return switch (mark) {
            case "HELD" -> "m-held";
            case "DELAYED_ACK" -> "m-delayed";
            case "RESUMED" -> "m-resumed";
            case "RETRANSMISSION" -> "m-retrans";
            default -> "m-other";
        };
    }

    static String millis(long us) {
        return String.format(java.util.Locale.ROOT, "%.3f ms", us / 1000.0);
    }

    // ---- primitives -----------------------------------------------------------------------------------------

    static void open(StringBuilder sb, int w, int h, String cls, String label) {
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"").append(cls).append("\" viewBox=\"0 0 ")
                .append(w).append(' ').append(h).append("\" role=\"img\" aria-label=\"");
        Text.html(sb, label, 400);
        sb.append("\">");
    }

    static void line(StringBuilder sb, double x1, double y1, double x2, double y2, String cls) {
        sb.append("<line class=\"").append(cls).append("\" x1=\"");
        num(sb, x1);
        sb.append("\" y1=\"");
        num(sb, y1);
        sb.append("\" x2=\"");
        num(sb, x2);
        sb.append("\" y2=\"");
        num(sb, y2);
        sb.append("\"/>");
    }

    static void text(StringBuilder sb, double x, double y, String anchor, String cls, String s) {
        sb.append("<text class=\"").append(cls).append("\" x=\"");
        num(sb, x);
        sb.append("\" y=\"");
        num(sb, y);
        sb.append("\" text-anchor=\"").append(anchor).append("\">");
        Text.html(sb, s, 400);
        sb.append("</text>");
    }

    /** A coordinate with one decimal. */
    private static void num(StringBuilder sb, double v) {
        long r = Math.round(v * 10);
        if (r < 0) {
            sb.append('-');
            r = -r;
        }
        sb.append(r / 10);
        if (r % 10 != 0) {
            sb.append('.').append(r % 10);
        }
    }
}
