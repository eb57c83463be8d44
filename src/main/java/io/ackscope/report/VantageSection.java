package io.ackscope.report;

import java.util.Locale;

/**
 * The page's "Two vantage points" section, when the input had two or more capture sources that saw connections in
 * common ({@link ReportData#sourcePairs()}; docs/vantage.md): per pair the clock offset with its bound (and whether
 * that bound is too loose to split a round trip), loss per direction, the one-way delay distributions, and per
 * server endpoint its time split into client host, network each way and server host. Markup only from constants
 * here; source names and endpoints through {@link HtmlPage#text} and {@link HtmlPage#capture}.
 */
final class VantageSection {
    private VantageSection() {
    }

    static void write(HtmlPage out, ReportData d) {
        if (d.sourcePairs().isEmpty()) {
            return;
        }
        out.raw("<section id=\"vantage\"><h2>Two vantage points</h2><p class=\"note\">");
        out.text("Connections captured at two points (sources) are matched segment by segment. A is the point nearer "
                + "the clients. The clock offset comes from the smallest one-way delays each way (Paxson's minimum "
                + "filter); the truth lies within its ± bound. Host times are read on the clock next to that host: "
                + "the client's ACK delay at A, the server's turnaround at B. These figures are of the whole input "
                + "(the page's server and time selection does not apply).");
        out.raw("</p>");
        for (ReportData.SourcePair p : d.sourcePairs()) {
            pair(out, p);
        }
        out.raw("</section>");
    }

    private static void pair(HtmlPage out, ReportData.SourcePair p) {
        out.raw("<h3>");
        out.capture("A: " + p.sourceA() + " · B: " + p.sourceB());
        out.raw("</h3><div class=\"cards\">");
        out.card("pair-connections", Format.count(p.connections()), "connections both saw", null);
        out.card("clock-offset", String.format(Locale.ROOT, "%+.3f ms ± %.3f ms", p.clockOffsetMicros() / 1e3,
                p.clockOffsetErrorMicros() / 1e3), "B's clock minus A's" + (p.delaysSplit() ? ""
                : " (bound too loose to split delays)"), p.delaysSplit() ? "good" : null);
        out.card("drift", String.format(Locale.ROOT, "%.0f ppm", p.driftPpm()), "B's clock faster by", null);
        out.card("lost-a-to-b", Format.count(p.lostAtoB()), "lost A → B", p.lostAtoB() > 0 ? "bad" : "good");
        out.card("lost-b-to-a", Format.count(p.lostBtoA()), "lost B → A", p.lostBtoA() > 0 ? "bad" : "good");
        out.raw("</div>");
        if (!p.delaysSplit()) {
            out.raw("<p class=\"note\">");
            out.text("Too loose to split: the offset's bound (± " + Format.duration(p.clockOffsetErrorMicros())
                    + ") is wider than 1 ms, so the two one-way delays below rest on both directions' smallest delays "
                    + "being equal; their sum (the round trip between the points), the losses and the host times do "
                    + "not depend on it.");
            out.raw("</p>");
        }
        out.raw("<div class=\"grid\">");
        for (ReportData.Distribution dist : new ReportData.Distribution[]{p.aToB(), p.bToA()}) {
            out.raw("<figure class=\"dist\" data-metric=\"one_way\"><figcaption><b>");
            out.text(dist.label());
            out.raw("</b> <span>");
            out.text("(" + dist.detail() + ") " + (dist.count() == 0 ? "no values" : "n = " + Format.count(dist.count())
                    + " · p50 " + Format.duration(dist.p50Micros()) + " · p99 " + Format.duration(dist.p99Micros())
                    + " · max " + Format.duration(dist.maxMicros())));
            out.raw("</span></figcaption>");
            Svg.distribution(out.sb, dist);
            out.raw("</figure>");
        }
        out.raw("</div><h4>Where the time goes, per server endpoint (medians)</h4><div class=\"scroll\">"
                + "<table class=\"list hosts\"><thead><tr><th>server</th><th>connections</th>"
                + "<th>client host: ACK delay at A</th><th>of a stall's ACKs</th><th>network A → B</th>"
                + "<th>server host: turnaround at B</th><th>network B → A</th><th>turnaround seen at A</th>"
                + "</tr></thead><tbody>");
        for (ReportData.HostSplit h : p.servers()) {
            out.raw("<tr><td class=\"capture\">");
            out.capture(h.server());
            out.raw("</td>");
            out.cells(Format.count(h.connections()), Format.duration(h.clientAckMicros()),
                    Format.duration(h.stallAckMicros()), Format.duration(h.aToBMicros()),
                    Format.duration(h.serverMicros()), Format.duration(h.bToAMicros()),
                    Format.duration(h.serverAtAMicros()));
            out.raw("</tr>");
        }
        out.raw("</tbody></table></div>");
        ReportData.TwoPointFlow f = p.flow();
        if (f != null) {
            out.raw("<h4>");
            out.text("Flow graph at both points: the connection with the largest one-way delay (stream "
                    + f.streamA() + " at A, " + f.streamB() + " at B), " + f.crossings().size()
                    + " segments around it");
            out.raw("</h4><p class=\"note\">");
            out.text("Each arrow runs from where the segment was seen leaving to where it was seen arriving, on A's "
                    + "clock (B's times moved by the offset): its slant is the one-way delay. Segments lost between "
                    + "the points are not drawn (they are counted above).");
            out.raw("</p><div class=\"scroll\">");
            TwoPointSvg.flow(out.sb, f, p.sourceA(), p.sourceB());
            out.raw("</div>");
        }
    }
}
