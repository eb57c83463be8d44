package io.ackscope.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import io.ackscope.tcp.CauseRanking;

import java.util.List;

/**
 * Renders a {@link ReportData} as one self-contained HTML page: no script, no external resource of any kind (a
 * Content-Security-Policy of {@code default-src 'none'} makes the browser refuse any that slipped in), inline SVG
 * charts, and the style sheet ({@code report.css}, with a print style and a layout for narrow screens) inlined.
 *
 * <p>Safety rule: markup is written only from constants in this class and {@link Svg}; every other string,
 * including numbers, goes through {@link Text#html}, which bounds it, makes hidden characters visible and escapes
 * it. No value from the data is ever written into a style, a script or an unquoted attribute.
 */
public final class HtmlReport {
    private HtmlReport() {
    }

    /** Flow graphs drawn open; the others are one click away. */
    private static final int OPEN_LADDERS = 1;
    private final HtmlPage out = new HtmlPage();

    /**
     * The page.
     *
     * @param generated when the page was made, in words (not part of the golden data)
     * @param version   ackscope's version, or null
     */
    public static String render(ReportData d, String generated, String version) {
        HtmlReport r = new HtmlReport();
        r.page(d, generated, version);
        return r.out.sb.toString();
    }

    private void page(ReportData d, String generated, String version) {
        out.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
                + "img-src data:; base-uri 'none'; form-action 'none'\">"
                + "<meta name=\"referrer\" content=\"no-referrer\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<meta name=\"color-scheme\" content=\"light\"><title>");
        out.text("ackscope report — " + d.verdict().headline());
        out.raw("</title><style>");
        out.raw(CSS);
        out.raw("</style></head><body><header class=\"top\"><div class=\"brand\">ackscope · TCP latency report</div>"
                + "<div class=\"meta\">");
        out.text(Format.plural(d.input().files(), "capture file", "capture files") + ", "
                + Format.plural(d.input().frames(), "frame", "frames") + span(d.input()) + " · " + d.filter());
        out.raw("<br>tables: ");
        out.text(d.tablesDir());
        out.raw(" · generated ");
        out.text(generated);
        out.raw("</div></header><main>");
        verdict(d);
        nav(d);
        CausesSection.causes(out, d);
        headline(d);
        CausesSection.diagnosis(out, d);
        charts(d);
        timeline(d);
        VantageSection.write(out, d);
        worst(d);
        slowest(d);
        InputSection.write(out, d);
        out.raw("</main><footer>Made by ackscope");
        if (version != null) {
            out.text(" " + version);
        }
        out.raw(". This page is self-contained: it loads nothing and runs no script. Everything quoted from the "
                + "capture (addresses, HTTP fields, file names) is shown as text.</footer></body></html>\n");
    }

    private static String span(ReportData.Input in) {
        if (in.firstMicros() == null) {
            return "";
        }
        return " from " + Format.time(in.firstMicros()) + " over " + Format.duration(in.lastMicros()
                - in.firstMicros());
    }

    // ---- sections -------------------------------------------------------------------------------------------

    private void verdict(ReportData d) {
        ReportData.Verdict v = d.verdict();
        out.raw("<section id=\"verdict\" class=\"verdict " + (v.found() ? "stall" : "ok")
                + "\"><div class=\"label\">");
        out.text(v.found() ? "Diagnosis" : "Diagnosis: no cause found");
        out.raw("</div><h1>");
        out.text(v.headline());
        out.raw("</h1><p class=\"summary\">");
        out.text(v.summary());
        out.raw("</p>");
        out.raw("<p class=\"more\"><a href=\"#causes\">The causes</a> · <a href=\"#diagnosis\">The evidence</a>");
        if (v.evidence() != null) {
            // the anchor is Selection.anchor's: letters, digits and dashes
            out.raw(" · <a href=\"#" + v.evidence() + "\">");
            out.text("See it happen, packet by packet");
            out.raw("</a>");
        }
        out.raw("</p>");
        if (!v.fixes().isEmpty()) {
            out.raw("<div class=\"fixes\"><h2>What to do</h2><ol>");
            for (String f : v.fixes()) {
                out.raw("<li>");
                out.text(f);
                out.raw("</li>");
            }
            out.raw("</ol></div>");
        }
        out.raw("</section>");
    }

    private void nav(ReportData d) {
        out.raw("<nav class=\"toc\"><a href=\"#causes\">Causes</a><a href=\"#numbers\">Numbers</a>"
                + "<a href=\"#diagnosis\">Diagnosis</a>"
                + "<a href=\"#charts\">Distributions</a><a href=\"#over-time\">Over time</a>"
                + "<a href=\"#worst\">Worst connections</a><a href=\"#slowest\">Slowest requests</a>"
                + "<a href=\"#input\">What was analysed</a><a href=\"#method\">How it was measured</a></nav>");
    }

    private void headline(ReportData d) {
        out.raw("<section id=\"numbers\"><h2>Per server endpoint</h2>");
        if (d.endpoints().isEmpty()) {
            out.raw("<p class=\"empty\">");
            out.text("No TCP connection matches the selection.");
            out.raw("</p></section>");
            return;
        }
        if (d.endpoints().size() > 1) {
            overview(d);
        }
        int detailed = 0;
        for (ReportData.Endpoint e : d.endpoints()) {
            if (detailed++ == d.limits().chartedEndpoints()) {
                break;
            }
            out.raw("<div class=\"endpoint\" id=\"ep-" + detailed + "\" data-server=\"");
            out.text(e.server());
            out.raw("\"><h3>");
            out.text(e.server());
            out.raw("</h3><div class=\"cards\">");
            out.card("requests", Format.count(e.requests()), "requests", null);
            out.card("connections", Format.count(e.connections()), "connections", null);
            // red only where the cost reaches the verdict threshold: one stall in thousands of requests is not
            boolean costly = CauseRanking.isVerdict(e.stallShare());
            long stalls = e.serverHeldStalls() + e.clientHeldStalls();
            out.card("time-lost", Format.duration(e.timeLostMicros()), "lost to the causes found",
                    verdictAt(d, e.server()) ? "bad" : "good");
            out.card("stalls", Format.count(stalls), "Nagle × delayed-ACK stalls",
                    stalls > 0 && costly ? "bad" : stalls > 0 ? null : "good");
            out.card("stall-share", Format.percent(e.stallShare()), "of response time lost to stalls",
                    costly ? "bad" : "good");
            out.raw("</div><div class=\"scroll\"><table class=\"numbers\"><thead><tr><th>");
            out.text("latency");
            out.raw("</th><th>n</th><th>p50</th><th>p90</th><th>p99</th><th>max</th></tr></thead><tbody>");
            for (ReportData.Distribution dist : e.distributions()) {
                out.raw("<tr data-metric=\"");
                out.text(dist.metric());
                out.raw("\"><th>");
                out.text(dist.label());
                out.raw("<span class=\"detail\">");
                out.text(dist.detail());
                out.raw("</span></th><td data-stat=\"count\">");
                out.text(Format.count(dist.count()));
                out.raw("</td>");
                stat("p50", dist.p50Micros());
                stat("p90", dist.p90Micros());
                stat("p99", dist.p99Micros());
                stat("max", dist.maxMicros());
                out.raw("</tr>");
            }
            out.raw("</tbody></table></div></div>");
        }
        if (d.endpointsNotShown() > 0) {
            out.raw("<p class=\"note\">");
            out.text(Format.plural(d.endpointsNotShown(), "more server endpoint is", "more server endpoints are")
                    + " not shown (the " + d.endpoints().size() + " where the most time was lost are); use "
                    + "ackscope report --server "
                    + "HOST:PORT for one of them.");
            out.raw("</p>");
        }
        out.raw("</section>");
    }

    /** Whether a cause at the endpoint called {@code server} reached the verdict threshold. */
    private static boolean verdictAt(ReportData d, String server) {
        for (ReportData.CauseRow c : d.causes()) {
            if (c.verdict() && c.server().equals(server)) {
                return true;
            }
        }
        return false;
    }

    /** One row per endpoint, the most time lost first; the first few link to their details. */
    private void overview(ReportData d) {
        out.raw("<div class=\"scroll\"><table class=\"list overview\"><thead><tr><th>server</th><th>requests</th>"
                + "<th>connections</th><th>time lost</th><th>stalls</th><th>time lost to stalls</th>"
                + "<th>first byte p50</th>"
                + "<th>first byte p99</th><th>response p50</th><th>response p99</th><th>ACK delay p99</th>"
                + "<th>handshake RTT p50</th></tr></thead><tbody>");
        int n = 0;
        for (ReportData.Endpoint e : d.endpoints()) {
            n++;
            long stalls = e.serverHeldStalls() + e.clientHeldStalls();
            // the server with its capture source breaks anywhere rather than widen the table past the page
            out.raw(verdictAt(d, e.server()) ? "<tr class=\"bad\"><td class=\"wrap where\">"
                    : "<tr><td class=\"wrap where\">");
            if (n <= d.limits().chartedEndpoints()) {
                out.raw("<a href=\"#ep-" + n + "\">");
                out.text(e.server());
                out.raw("</a>");
            } else {
                out.text(e.server());
            }
            out.raw("</td>");
            out.cells(Format.count(e.requests()), Format.count(e.connections()), Format.duration(e.timeLostMicros()),
                    Format.count(stalls),
                    Format.percent(e.stallShare()), Format.duration(e.distribution("ttfb").p50Micros()),
                    Format.duration(e.distribution("ttfb").p99Micros()),
                    Format.duration(e.distribution("response").p50Micros()),
                    Format.duration(e.distribution("response").p99Micros()),
                    Format.duration(e.distribution("ack_delay").p99Micros()),
                    Format.duration(e.distribution("handshake_rtt").p50Micros()));
            out.raw("</tr>");
        }
        out.raw("</tbody></table></div>");
        if (d.endpoints().size() > d.limits().chartedEndpoints()) {
            out.raw("<p class=\"note\">");
            out.text("Details and charts follow for the " + d.limits().chartedEndpoints() + " endpoints where the most "
                    + "time was lost (then the busiest).");
            out.raw("</p>");
        }
    }

    private void stat(String name, Long us) {
        out.raw("<td data-stat=\"" + name + "\"");
        if (us != null) {
            out.raw(" data-us=\"" + us + "\"");
            if (us >= 36_000 && us <= 50_000) {
                out.raw(" class=\"timer-band\" title=\"in the 36–50 ms band of the Linux/FreeBSD delayed-ACK timer\"");
            } else if (us >= 180_000 && us <= 230_000) {
                out.raw(" class=\"timer-band\" title=\"in the 180–230 ms band of the 200 ms-class delayed-ACK timers: Windows, macOS, Linux on a long path\"");
            }
        }
        out.raw(">");
        out.text(Format.duration(us));
        out.raw("</td>");
    }

    private void charts(ReportData d) {
        out.raw("<section id=\"charts\"><h2>Distributions</h2><p class=\"note\">");
        out.text("Bars: how many values fall in each interval (log-scale time axis, 10 intervals per decade). Line: "
                + "share of values at or below a time (cumulative, right axis). Dashed red lines: the delayed-ACK "
                + "timers (40 ms: Linux/FreeBSD; 200 ms: Windows, macOS, or Linux on a path of 200 ms or more, whose "
                + "timer grows with the round trip); a spike there means something "
                + "waited for a delayed ACK. Triangles: p50 and p99.");
        out.raw("</p>");
        int n = 0;
        for (ReportData.Endpoint e : d.endpoints()) {
            if (n++ >= d.limits().chartedEndpoints()) {
                out.raw("<p class=\"note\">");
                out.text("Charts are drawn for the " + d.limits().chartedEndpoints() + " endpoints where the most time "
                        + "was lost; the others have their numbers above.");
                out.raw("</p>");
                break;
            }
            out.raw("<h3>");
            out.text(e.server());
            out.raw("</h3><div class=\"grid\">");
            for (ReportData.Distribution dist : e.distributions()) {
                out.raw("<figure class=\"dist\" data-metric=\"");
                out.text(dist.metric());
                out.raw("\"><figcaption><b>");
                out.text(dist.label());
                out.raw("</b> <span>");
                out.text("(" + dist.detail() + ") ");
                out.text(dist.count() == 0 ? "no values" : "n = " + Format.count(dist.count()) + " · p50 "
                        + Format.duration(dist.p50Micros()) + " · p99 " + Format.duration(dist.p99Micros())
                        + " · max " + Format.duration(dist.maxMicros()));
                out.raw("</span></figcaption>");
                Svg.distribution(out.sb, dist);
                out.raw("</figure>");
            }
            out.raw("</div>");
        }
        out.raw("</section>");
    }

    private void timeline(ReportData d) {
        ReportData.Timeline t = d.timeline();
        out.raw("<section id=\"over-time\"><h2>Latency over time</h2><p class=\"note\">");
        out.text(t.requests().length == 0 ? "No measurements in the selected window."
                : "In intervals of " + Format.duration(t.bucketMicros()) + " (UTC times): lines show the "
                + "percentiles of each interval (log scale); bars below show requests (grey) and stalls (red) "
                + "starting in it." + (t.periods().size() < 2 ? "" : " The time axis breaks (dashed line) where "
                + "no connection was open for a long stretch; that time is left out.")
                + (t.outside() == 0 ? "" : " " + Format.plural(t.outside(), "request is",
                "requests are") + " not drawn: their timestamps lie far from the rest of the capture."));
        out.raw("</p><figure class=\"wide\">");
        Svg.timeline(out.sb, t);
        out.raw("<figcaption class=\"legend\">");
        int i = 0;
        for (ReportData.Series s : t.series()) {
            out.raw("<span><i class=\"sw s" + i++ + "\"></i>");
            out.text(s.label());
            out.raw("</span>");
        }
        out.raw("<span><i class=\"sw req\"></i>requests</span><span><i class=\"sw stall\"></i>stalls</span>"
                + "</figcaption></figure></section>");
    }

    private void worst(ReportData d) {
        out.raw("<section id=\"worst\"><h2>Worst connections</h2><p class=\"note\">");
        out.text("First the connections that show the causes (their evidence: every cause of "
                + Format.percent(CauseRanking.VERDICT_SHARE) + " or more, smaller ones while there is room), then "
                + "the others ranked by time "
                + "lost to stalls and by the slowest response. Each flow graph shows the connection's first frames and "
                + "the frames around its evidence (or longest stall, or slowest request), client on the left, "
                + "server on the right, time going down; hover an arrow for its details.");
        out.raw("</p>");
        if (d.worstConnections().isEmpty()) {
            out.raw("<p class=\"empty\">No connections.</p></section>");
            return;
        }
        out.raw("<div class=\"scroll\"><table class=\"list nowrap\"><thead><tr><th>stream</th><th>client</th>"
                + "<th>server</th><th>start (UTC)</th><th>duration</th><th>requests</th><th>stalls</th>"
                + "<th>stall time</th><th>slowest response</th><th>retrans.</th><th>state</th></tr></thead><tbody>");
        for (ReportData.Connection c : d.worstConnections()) {
            out.raw("<tr><td><a href=\"#" + c.anchor() + "\">");
            out.text(Long.toString(c.stream()));
            out.raw("</a></td>");
            out.cells(c.client(), c.server(), Format.clock(c.firstMicros()), Format.duration(c.durationMicros()),
                    Format.count(c.requests()), Format.count(c.stalls()), Format.duration(c.stallMicros()),
                    Format.duration(c.maxResponseMicros()), Format.count(c.retransmissions()),
                    c.connState() + " " + c.history());
            out.raw("</tr>");
        }
        out.raw("</tbody></table></div>");
        int n = 0;
        for (ReportData.Connection c : d.worstConnections()) {
            out.raw("<details class=\"conn\" id=\"" + c.anchor() + "\"" + (n < OPEN_LADDERS ? " open" : "")
                    + "><summary>");
            out.text("Stream " + c.stream() + ": " + c.client() + " → " + c.server() + " — " + c.why());
            out.raw("</summary>");
            if (c.stallEvidence() != null) {
                out.raw("<p class=\"evidence-line\">");
                out.text("Longest stall: " + c.stallEvidence());
                out.raw("</p>");
            }
            ReportData.Ladder l = c.ladder();
            if (l.unavailable() != null) {
                out.raw("<p class=\"empty\">");
                out.text("No flow graph: " + l.unavailable());
                out.raw("</p>");
            } else {
                out.raw("<div class=\"scroll\">");
                Svg.ladder(out.sb, l, c.client(), c.server(), n);
                out.raw("</div><p class=\"note\">");
                out.text(Format.plural(l.rows().size(), "frame", "frames") + " of " + Format.count(l.frames())
                        + " shown; packets " + l.source() + ". Seq and Ack are relative to each side's first "
                        + "sequence number, as in Wireshark.");
                out.raw("</p><p class=\"legend\"><span><i class=\"sw m-held\"></i>held: small segment waiting for its "
                        + "ACK</span><span><i class=\"sw m-delayed\"></i>delayed ACK</span><span><i "
                        + "class=\"sw m-resumed\"></i>held data released</span><span><i class=\"sw m-retrans\">"
                        + "</i>retransmission</span></p>");
            }
            out.raw("</details>");
            n++;
        }
        out.raw("</section>");
    }

    private void slowest(ReportData d) {
        out.raw("<section id=\"slowest\"><h2>Slowest requests</h2>");
        if (d.slowestRequests().isEmpty()) {
            out.raw("<p class=\"empty\">");
            out.text("No request/response exchanges in the selection.");
            out.raw("</p></section>");
            return;
        }
        out.raw("<p class=\"note\">");
        out.text("The " + d.slowestRequests().size() + " slowest by response time. HTTP fields are quoted from the "
                + "capture.");
        out.raw("</p><div class=\"scroll\"><table class=\"list\"><thead><tr><th>start (UTC)</th><th>stream</th>"
                + "<th>#</th><th>server</th><th>request</th><th>host</th><th>status</th><th>first byte</th>"
                + "<th>response</th><th>stalled</th><th>bytes in / out</th></tr></thead><tbody>");
        for (ReportData.Request r : d.slowestRequests()) {
            out.raw("<tr>");
            out.cells(Format.clock(r.startMicros()), Long.toString(r.stream()), Integer.toString(r.index()), r.server());
            out.raw("<td class=\"capture\">");
            if (r.method() == null) {
                out.text("(not HTTP)");
            } else {
                out.capture(r.method());
                out.text(" ");
                out.capture(r.target());
            }
            out.raw("</td><td class=\"capture\">");
            out.capture(r.host() == null ? "" : r.host());
            out.raw("</td>");
            out.cells(r.status() == null ? "" : r.status().toString(), Format.duration(r.ttfbMicros()),
                    Format.duration(r.responseMicros()), r.stallMicros() != null && r.stallMicros() > 0
                            ? Format.duration(r.stallMicros()) : "",
                    Format.bytes(r.requestBytes()) + " / " + Format.bytes(r.responseBytes()));
            out.raw("</tr>");
        }
        out.raw("</tbody></table></div></section>");
    }

    /** The page's style sheet ({@code report.css} beside this class in the resources), read once. */
    private static final String CSS = styleSheet();

    private static String styleSheet() {
        try (InputStream in = HtmlReport.class.getResourceAsStream("report.css")) {
            if (in == null) {
                throw new IllegalStateException("report.css is missing from ackscope's jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read report.css from ackscope's jar", e);
        }
    }
}
