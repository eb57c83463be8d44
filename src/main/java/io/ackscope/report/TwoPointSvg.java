package io.ackscope.report;

/**
 * The flow graph of one connection seen at two points (Wireshark's flow graph with both capture points): point A
 * on the left, B on the right, time going down on A's clock (B's times moved by the pair's offset), one arrow per
 * segment from where it was seen leaving to where it was seen arriving, so its slant is its one-way delay. Segments
 * lost between the points are not in {@code one_way_delays} and so not drawn.
 */
final class TwoPointSvg {
    private TwoPointSvg() {
    }

    /** Height of the drawing's time span at most, px; shorter spans are drawn at 8 px per ms. */
    private static final double MAX_SPAN_PX = 1200;
    private static final double PX_PER_MS = 8;

    static void flow(StringBuilder sb, ReportData.TwoPointFlow f, String a, String b) {
        final int w = 860, timeX = 8, ax = 190, bx = 690, head = 50;
        long span = 1;
        for (ReportData.Crossing c : f.crossings()) {
            span = Math.max(span, Math.max(c.aMicros(), c.bMicros()));
        }
        double scale = Math.min(PX_PER_MS / 1000.0, MAX_SPAN_PX / span);
        int height = head + (int) Math.ceil(span * scale) + 30;
        Svg.open(sb, w, height, "chart ladder two-point", "Flow graph of one connection at " + a + " and " + b);
        sb.append("<defs><marker id=\"ah-two\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" "
                + "markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0 0 L10 5 L0 10 z\" "
                + "class=\"arrowhead\"/></marker></defs>");
        Svg.text(sb, timeX, 18, "start", "lhead", "time at A");
        Svg.text(sb, ax, 18, "middle", "lhead", "A " + a);
        Svg.text(sb, bx, 18, "middle", "lhead", "B " + b);
        Svg.line(sb, ax, 28, ax, height - 4, "lifeline");
        Svg.line(sb, bx, 28, bx, height - 4, "lifeline");
        double lastLabel = -100;
        for (ReportData.Crossing c : f.crossings()) {
            double ya = head + c.aMicros() * scale;
            double yb = head + c.bMicros() * scale;
            double y1 = c.aToB() ? ya : yb;
            double y2 = c.aToB() ? yb : ya;
            sb.append("<line class=\"arrow").append(c.length() > 0 ? " data" : "").append("\" x1=\"")
                    .append(c.aToB() ? ax : bx).append("\" y1=\"").append(Math.round(y1)).append("\" x2=\"")
                    .append(c.aToB() ? bx : ax).append("\" y2=\"").append(Math.round(y2))
                    .append("\" marker-end=\"url(#ah-two)\"><title>");
            Text.html(sb, (c.aToB() ? "A → B" : "B → A") + ": Seq=" + c.seq() + " Len=" + c.length() + ", frame "
                    + c.aFrame() + " at A, " + c.bFrame() + " at B, one-way " + Format.duration(c.delayMicros()), 300);
            sb.append("</title></line>");
            if (Math.min(y1, y2) - lastLabel >= 12) {
                Svg.text(sb, timeX, Math.min(y1, y2) + 4, "start", "ltime", Svg.millis(Math.min(c.aMicros(),
                        c.bMicros())));
                Svg.text(sb, (ax + bx) / 2.0, (y1 + y2) / 2 - 3, "middle", "llabel", "Seq=" + c.seq() + " Len="
                        + c.length() + " · " + Format.duration(c.delayMicros()));
                lastLabel = Math.min(y1, y2);
            }
        }
        sb.append("</svg>");
    }
}
