package io.ackscope.report;

import java.util.List;
import java.util.Map;

/**
 * Renders a {@link ReportData} as one self-contained HTML page: no script, no external resource of any kind (a
 * Content-Security-Policy of {@code default-src 'none'} makes the browser refuse any that slipped in), inline SVG
 * charts, a print style sheet and a layout for narrow screens.
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
    private final StringBuilder sb = new StringBuilder(256 * 1024);

    /**
     * The page.
     *
     * @param generated when the page was made, in words (not part of the golden data)
     * @param version   ackscope's version, or null
     */
    public static String render(ReportData d, String generated, String version) {
        HtmlReport r = new HtmlReport();
        r.page(d, generated, version);
        return r.sb.toString();
    }

    private void page(ReportData d, String generated, String version) {
        raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
                + "img-src data:; base-uri 'none'; form-action 'none'\">"
                + "<meta name=\"referrer\" content=\"no-referrer\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<meta name=\"color-scheme\" content=\"light\"><title>");
        text("ackscope report — " + d.verdict().headline());
        raw("</title><style>");
        raw(CSS);
        raw("</style></head><body><header class=\"top\"><div class=\"brand\">ackscope · TCP latency report</div>"
                + "<div class=\"meta\">");
        text(Format.plural(d.input().files(), "capture file", "capture files") + ", "
                + Format.plural(d.input().frames(), "frame", "frames") + span(d.input()) + " · " + d.filter());
        raw("<br>tables: ");
        text(d.tablesDir());
        raw(" · generated ");
        text(generated);
        raw("</div></header><main>");
        verdict(d);
        nav(d);
        headline(d);
        diagnosis(d);
        charts(d);
        timeline(d);
        worst(d);
        slowest(d);
        analysed(d);
        method(d);
        raw("</main><footer>Made by ackscope");
        if (version != null) {
            text(" " + version);
        }
        raw(". This page is self-contained: it loads nothing and runs no script. Everything quoted from the "
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
        raw("<section id=\"verdict\" class=\"verdict " + (v.stallFound() ? "stall" : "ok")
                + "\"><div class=\"label\">");
        text(v.stallFound() ? "Diagnosis" : "Diagnosis: all clear");
        raw("</div><h1>");
        text(v.headline());
        raw("</h1><p class=\"summary\">");
        text(v.summary());
        raw("</p>");
        raw("<p class=\"more\"><a href=\"#diagnosis\">The evidence</a>");
        if (v.stallFound() && !d.worstConnections().isEmpty()) {
            raw(" · <a href=\"#stream-" + d.worstConnections().get(0).stream() + "\">");
            text("See it happen, packet by packet (stream " + d.worstConnections().get(0).stream() + ")");
            raw("</a>");
        }
        raw("</p>");
        if (!v.fixes().isEmpty()) {
            raw("<div class=\"fixes\"><h2>What to do</h2><ol>");
            for (String f : v.fixes()) {
                raw("<li>");
                text(f);
                raw("</li>");
            }
            raw("</ol></div>");
        }
        raw("</section>");
    }

    private void nav(ReportData d) {
        raw("<nav class=\"toc\"><a href=\"#numbers\">Numbers</a><a href=\"#diagnosis\">Diagnosis</a>"
                + "<a href=\"#charts\">Distributions</a><a href=\"#over-time\">Over time</a>"
                + "<a href=\"#worst\">Worst connections</a><a href=\"#slowest\">Slowest requests</a>"
                + "<a href=\"#input\">What was analysed</a><a href=\"#method\">How it was measured</a></nav>");
    }

    private void headline(ReportData d) {
        raw("<section id=\"numbers\"><h2>Per server endpoint</h2>");
        if (d.endpoints().isEmpty()) {
            raw("<p class=\"empty\">");
            text("No TCP connection matches the selection.");
            raw("</p></section>");
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
            raw("<div class=\"endpoint\" id=\"ep-" + detailed + "\" data-server=\"");
            text(e.server());
            raw("\"><h3>");
            text(e.server());
            raw("</h3><div class=\"cards\">");
            card("requests", Format.count(e.requests()), "requests", null);
            card("connections", Format.count(e.connections()), "connections", null);
            card("stalls", Format.count(e.serverHeldStalls() + e.clientHeldStalls()), "Nagle × delayed-ACK stalls",
                    e.serverHeldStalls() + e.clientHeldStalls() > 0 ? "bad" : "good");
            card("stall-share", Format.percent(e.stallShare()), "of response time lost to stalls",
                    e.stallShare() > 0.01 ? "bad" : "good");
            raw("</div><div class=\"scroll\"><table class=\"numbers\"><thead><tr><th>");
            text("latency");
            raw("</th><th>n</th><th>p50</th><th>p90</th><th>p99</th><th>max</th></tr></thead><tbody>");
            for (ReportData.Distribution dist : e.distributions()) {
                raw("<tr data-metric=\"");
                text(dist.metric());
                raw("\"><th>");
                text(dist.label());
                raw("<span class=\"detail\">");
                text(dist.detail());
                raw("</span></th><td data-stat=\"count\">");
                text(Format.count(dist.count()));
                raw("</td>");
                stat("p50", dist.p50Micros());
                stat("p90", dist.p90Micros());
                stat("p99", dist.p99Micros());
                stat("max", dist.maxMicros());
                raw("</tr>");
            }
            raw("</tbody></table></div></div>");
        }
        if (d.endpointsNotShown() > 0) {
            raw("<p class=\"note\">");
            text(Format.plural(d.endpointsNotShown(), "more server endpoint is", "more server endpoints are")
                    + " not shown (the " + d.endpoints().size() + " busiest are); use ackscope report --server "
                    + "HOST:PORT for one of them.");
            raw("</p>");
        }
        raw("</section>");
    }

    /** One row per endpoint, busiest first; the busiest few link to their details. */
    private void overview(ReportData d) {
        raw("<div class=\"scroll\"><table class=\"list overview\"><thead><tr><th>server</th><th>requests</th>"
                + "<th>connections</th><th>stalls</th><th>time lost to stalls</th><th>first byte p50</th>"
                + "<th>first byte p99</th><th>response p50</th><th>response p99</th><th>ACK delay p99</th>"
                + "<th>handshake RTT p50</th></tr></thead><tbody>");
        int n = 0;
        for (ReportData.Endpoint e : d.endpoints()) {
            n++;
            long stalls = e.serverHeldStalls() + e.clientHeldStalls();
            raw(stalls > 0 ? "<tr class=\"bad\"><td>" : "<tr><td>");
            if (n <= d.limits().chartedEndpoints()) {
                raw("<a href=\"#ep-" + n + "\">");
                text(e.server());
                raw("</a>");
            } else {
                text(e.server());
            }
            raw("</td>");
            cells(Format.count(e.requests()), Format.count(e.connections()), Format.count(stalls),
                    Format.percent(e.stallShare()), Format.duration(e.distribution("ttfb").p50Micros()),
                    Format.duration(e.distribution("ttfb").p99Micros()),
                    Format.duration(e.distribution("response").p50Micros()),
                    Format.duration(e.distribution("response").p99Micros()),
                    Format.duration(e.distribution("ack_delay").p99Micros()),
                    Format.duration(e.distribution("handshake_rtt").p50Micros()));
            raw("</tr>");
        }
        raw("</tbody></table></div>");
        if (d.endpoints().size() > d.limits().chartedEndpoints()) {
            raw("<p class=\"note\">");
            text("Details and charts follow for the " + d.limits().chartedEndpoints() + " busiest endpoints.");
            raw("</p>");
        }
    }

    private void card(String key, String value, String label, String tone) {
        raw("<div class=\"card" + (tone == null ? "" : " " + tone) + "\" data-card=\"" + key + "\"><div class=\"v\">");
        text(value);
        raw("</div><div class=\"l\">");
        text(label);
        raw("</div></div>");
    }

    private void stat(String name, Long us) {
        raw("<td data-stat=\"" + name + "\"");
        if (us != null) {
            raw(" data-us=\"" + us + "\"");
            if (us >= 36_000 && us <= 50_000) {
                raw(" class=\"timer-band\" title=\"in the 36–50 ms band of the Linux/FreeBSD delayed-ACK timer\"");
            } else if (us >= 180_000 && us <= 230_000) {
                raw(" class=\"timer-band\" title=\"in the 180–230 ms band of the 200 ms delayed-ACK timer\"");
            }
        }
        raw(">");
        text(Format.duration(us));
        raw("</td>");
    }

    private void diagnosis(ReportData d) {
        raw("<section id=\"diagnosis\"><h2>Diagnosis and evidence</h2>");
        List<ReportData.Endpoint> eps = d.endpoints();
        int full = Math.min(eps.size(), d.limits().chartedEndpoints());
        for (ReportData.Endpoint e : eps.subList(0, full)) {
            for (ReportData.Finding f : e.findings()) {
                raw("<article class=\"finding " + ("problem".equals(f.severity()) ? "problem" : "ok")
                        + "\" data-kind=\"");
                text(f.kind());
                raw("\"><h3>");
                text(f.title());
                raw(" <span class=\"where\">");
                text(e.server());
                raw("</span></h3><p>");
                text(f.explanation());
                raw("</p>");
                if (!f.evidence().isEmpty()) {
                    raw("<h4>Evidence</h4><ul class=\"evidence\">");
                    for (String s : f.evidence()) {
                        raw("<li>");
                        text(s);
                        raw("</li>");
                    }
                    raw("</ul>");
                }
                if (!f.fixes().isEmpty()) {
                    raw("<h4>Fixes</h4><ol class=\"fixes-list\">");
                    for (String s : f.fixes()) {
                        raw("<li>");
                        text(s);
                        raw("</li>");
                    }
                    raw("</ol>");
                }
                if (!f.examples().isEmpty() && f.examples().get(0) >= 0) {
                    raw("<p class=\"note\">");
                    text("See it in the flow graph of stream " + f.examples().get(0) + " below.");
                    raw("</p>");
                }
                raw("</article>");
            }
        }
        // The other endpoints: their problems in one line each (the evidence is in the tables).
        boolean listed = false;
        for (ReportData.Endpoint e : eps.subList(full, eps.size())) {
            for (ReportData.Finding f : e.findings()) {
                if (!"problem".equals(f.severity())) {
                    continue;
                }
                if (!listed) {
                    raw("<h3>Other endpoints</h3><ul class=\"others\">");
                    listed = true;
                }
                raw("<li><b>");
                text(e.server());
                raw("</b>: ");
                text(f.title() + " — " + (f.evidence().isEmpty() ? "" : f.evidence().get(0)));
                raw("</li>");
            }
        }
        if (listed) {
            raw("</ul>");
        }
        raw("</section>");
    }

    private void charts(ReportData d) {
        raw("<section id=\"charts\"><h2>Distributions</h2><p class=\"note\">");
        text("Bars: how many values fall in each interval (log-scale time axis, 10 intervals per decade). Line: "
                + "share of values at or below a time (cumulative, right axis). Dashed red lines: the delayed-ACK "
                + "timers (40 ms Linux/FreeBSD, 200 ms Windows or Linux maximum); a spike there means something "
                + "waited for a delayed ACK. Triangles: p50 and p99.");
        raw("</p>");
        int n = 0;
        for (ReportData.Endpoint e : d.endpoints()) {
            if (n++ >= d.limits().chartedEndpoints()) {
                raw("<p class=\"note\">");
                text("Charts are drawn for the " + d.limits().chartedEndpoints() + " busiest endpoints; the others "
                        + "have their numbers above.");
                raw("</p>");
                break;
            }
            raw("<h3>");
            text(e.server());
            raw("</h3><div class=\"grid\">");
            for (ReportData.Distribution dist : e.distributions()) {
                raw("<figure class=\"dist\" data-metric=\"");
                text(dist.metric());
                raw("\"><figcaption><b>");
                text(dist.label());
                raw("</b> <span>");
                text("(" + dist.detail() + ") ");
                text(dist.count() == 0 ? "no values" : "n = " + Format.count(dist.count()) + " · p50 "
                        + Format.duration(dist.p50Micros()) + " · p99 " + Format.duration(dist.p99Micros())
                        + " · max " + Format.duration(dist.maxMicros()));
                raw("</span></figcaption>");
                Svg.distribution(sb, dist);
                raw("</figure>");
            }
            raw("</div>");
        }
        raw("</section>");
    }

    private void timeline(ReportData d) {
        ReportData.Timeline t = d.timeline();
        raw("<section id=\"over-time\"><h2>Latency over time</h2><p class=\"note\">");
        text(t.requests().length == 0 ? "No measurements in the selected window."
                : "In intervals of " + Format.duration(t.bucketMicros()) + " (UTC times): lines show the "
                + "percentiles of each interval (log scale); bars below show requests (grey) and stalls (red) "
                + "starting in it." + (t.outside() == 0 ? "" : " " + Format.plural(t.outside(), "request is",
                "requests are") + " not drawn: their timestamps lie far from the rest of the capture."));
        raw("</p><figure class=\"wide\">");
        Svg.timeline(sb, t);
        raw("<figcaption class=\"legend\">");
        int i = 0;
        for (ReportData.Series s : t.series()) {
            raw("<span><i class=\"sw s" + i++ + "\"></i>");
            text(s.label());
            raw("</span>");
        }
        raw("<span><i class=\"sw req\"></i>requests</span><span><i class=\"sw stall\"></i>stalls</span>"
                + "</figcaption></figure></section>");
    }

    private void worst(ReportData d) {
        raw("<section id=\"worst\"><h2>Worst connections</h2><p class=\"note\">");
        text("Ranked by time lost to stalls, then by the slowest response. Each flow graph shows the connection's "
                + "first frames and the frames around its longest stall (or slowest request), client on the left, "
                + "server on the right, time going down; hover an arrow for its details.");
        raw("</p>");
        if (d.worstConnections().isEmpty()) {
            raw("<p class=\"empty\">No connections.</p></section>");
            return;
        }
        raw("<div class=\"scroll\"><table class=\"list nowrap\"><thead><tr><th>stream</th><th>client</th>"
                + "<th>server</th><th>start (UTC)</th><th>duration</th><th>requests</th><th>stalls</th>"
                + "<th>stall time</th><th>slowest response</th><th>retrans.</th><th>state</th></tr></thead><tbody>");
        for (ReportData.Connection c : d.worstConnections()) {
            raw("<tr><td><a href=\"#stream-" + c.stream() + "\">");
            text(Long.toString(c.stream()));
            raw("</a></td>");
            cells(c.client(), c.server(), Format.clock(c.firstMicros()), Format.duration(c.durationMicros()),
                    Format.count(c.requests()), Format.count(c.stalls()), Format.duration(c.stallMicros()),
                    Format.duration(c.maxResponseMicros()), Format.count(c.retransmissions()),
                    c.connState() + " " + c.history());
            raw("</tr>");
        }
        raw("</tbody></table></div>");
        int n = 0;
        for (ReportData.Connection c : d.worstConnections()) {
            raw("<details class=\"conn\" id=\"stream-" + c.stream() + "\"" + (n < OPEN_LADDERS ? " open" : "")
                    + "><summary>");
            text("Stream " + c.stream() + ": " + c.client() + " → " + c.server() + " — " + c.why());
            raw("</summary>");
            if (c.stallEvidence() != null) {
                raw("<p class=\"evidence-line\">");
                text("Longest stall: " + c.stallEvidence());
                raw("</p>");
            }
            ReportData.Ladder l = c.ladder();
            if (l.unavailable() != null) {
                raw("<p class=\"empty\">");
                text("No flow graph: " + l.unavailable());
                raw("</p>");
            } else {
                raw("<div class=\"scroll\">");
                Svg.ladder(sb, l, c.client(), c.server(), n);
                raw("</div><p class=\"note\">");
                text(Format.plural(l.rows().size(), "frame", "frames") + " of " + Format.count(l.frames())
                        + " shown; packets " + l.source() + ". Seq and Ack are relative to each side's first "
                        + "sequence number, as in Wireshark.");
                raw("</p><p class=\"legend\"><span><i class=\"sw m-held\"></i>held: small segment waiting for its "
                        + "ACK</span><span><i class=\"sw m-delayed\"></i>delayed ACK</span><span><i "
                        + "class=\"sw m-resumed\"></i>held data released</span><span><i class=\"sw m-retrans\">"
                        + "</i>retransmission</span></p>");
            }
            raw("</details>");
            n++;
        }
        raw("</section>");
    }

    private void slowest(ReportData d) {
        raw("<section id=\"slowest\"><h2>Slowest requests</h2>");
        if (d.slowestRequests().isEmpty()) {
            raw("<p class=\"empty\">");
            text("No request/response exchanges in the selection.");
            raw("</p></section>");
            return;
        }
        raw("<p class=\"note\">");
        text("The " + d.slowestRequests().size() + " slowest by response time. HTTP fields are quoted from the "
                + "capture.");
        raw("</p><div class=\"scroll\"><table class=\"list\"><thead><tr><th>start (UTC)</th><th>stream</th>"
                + "<th>#</th><th>server</th><th>request</th><th>host</th><th>status</th><th>first byte</th>"
                + "<th>response</th><th>stalled</th><th>bytes in / out</th></tr></thead><tbody>");
        for (ReportData.Request r : d.slowestRequests()) {
            raw("<tr>");
            cells(Format.clock(r.startMicros()), Long.toString(r.stream()), Integer.toString(r.index()), r.server());
            raw("<td class=\"capture\">");
            if (r.method() == null) {
                text("(not HTTP)");
            } else {
                capture(r.method());
                text(" ");
                capture(r.target());
            }
            raw("</td><td class=\"capture\">");
            capture(r.host() == null ? "" : r.host());
            raw("</td>");
            cells(r.status() == null ? "" : r.status().toString(), Format.duration(r.ttfbMicros()),
                    Format.duration(r.responseMicros()), r.stallMicros() != null && r.stallMicros() > 0
                            ? Format.duration(r.stallMicros()) : "",
                    Format.bytes(r.requestBytes()) + " / " + Format.bytes(r.responseBytes()));
            raw("</tr>");
        }
        raw("</tbody></table></div></section>");
    }

    private void analysed(ReportData d) {
        ReportData.Input in = d.input();
        raw("<section id=\"input\"><h2>What was analysed</h2><div class=\"cards\">");
        card("files", Format.count(in.files()), (in.files() == 1 ? "capture file (" : "capture files (")
                + String.join(", ", in.formats()) + ")", null);
        card("bytes", Format.bytes(in.fileBytes()), "read", null);
        card("frames", Format.count(in.frames()), in.frames() == 1 ? "frame" : "frames", null);
        card("tcp", Format.count(in.tcpFrames()), in.tcpFrames() == 1 ? "TCP frame analysed" : "TCP frames analysed",
                null);
        card("conns", Format.count(in.selected()), "of " + Format.plural(in.connections(), "connection",
                "connections") + " selected", null);
        card("damaged", Format.count(in.damagedFiles()), in.damagedFiles() == 1 ? "damaged file" : "damaged files",
                in.damagedFiles() > 0 ? "bad" : "good");
        raw("</div><p>");
        text(in.firstMicros() == null ? "No frame had a timestamp." : "Time span: " + Format.time(in.firstMicros())
                + " to " + Format.time(in.lastMicros()) + " (" + Format.duration(in.lastMicros() - in.firstMicros())
                + "). Selection: " + d.filter() + ".");
        raw("</p><h3>Decoding</h3><div class=\"scroll\"><table class=\"list\"><tbody>");
        row("decoded completely", Format.count(in.framesOk()) + " (" + Format.percent(in.framesOk(), in.frames())
                + ")");
        row("cut short by the snap length", Format.count(in.framesTruncated()));
        row("malformed", Format.count(in.framesMalformed()));
        row("unsupported link type or protocol", Format.count(in.framesUnsupported()));
        for (Map.Entry<String, Long> e : in.skippedByReason().entrySet()) {
            row("not TCP or not analysed: " + e.getKey(), Format.count(e.getValue()));
        }
        raw("</tbody></table></div>");
        sources(in.sources());
        raw("<h3>Files</h3><div class=\"scroll\"><table class=\"list files\"><thead><tr>"
                + "<th>#</th><th>file</th><th>format</th><th>size</th><th>frames</th><th>TCP</th><th>first frame</th>"
                + "<th>last frame</th><th>problems</th></tr></thead><tbody>");
        for (ReportData.CaptureFile f : in.fileList()) {
            boolean bad = f.errorOffset() != null || f.format() == null || f.tailProblem() != null;
            raw(bad ? "<tr class=\"bad\">" : "<tr>");
            cells(Integer.toString(f.index()));
            raw("<td class=\"capture\">");
            capture(f.file());
            raw("</td>");
            StringBuilder problems = new StringBuilder();
            if (f.errorOffset() != null || f.error() != null) {
                problems.append("damaged at byte ").append(f.errorOffset()).append(": ").append(f.error())
                        .append(" (frames before it were analysed)");
            }
            if (f.tailProblem() != null) {
                problems.append(problems.length() > 0 ? "; " : "").append("last record cut at byte ")
                        .append(f.tailOffset()).append(": ").append(f.tailProblem());
            }
            if (f.framesTruncated() + f.framesMalformed() + f.framesUnsupported() > 0) {
                problems.append(problems.length() > 0 ? "; " : "").append(f.framesTruncated()).append(" truncated, ")
                        .append(f.framesMalformed()).append(" malformed, ").append(f.framesUnsupported())
                        .append(" unsupported frames");
            }
            cells(f.format() == null ? "unreadable" : f.format() + " (" + f.readMode() + ")", Format.bytes(f.bytes()),
                    Format.count(f.frames()), Format.count(f.tcpFrames()),
                    f.firstMicros() == null ? "" : Format.time(f.firstMicros()),
                    f.lastMicros() == null ? "" : Format.time(f.lastMicros()));
            raw("<td class=\"wrap\">");
            capture(problems.toString());
            raw("</td></tr>");
        }
        raw("</tbody></table></div>");
        if (in.filesNotListed() > 0) {
            raw("<p class=\"note\">");
            text(Format.plural(in.filesNotListed(), "more file", "more files") + " not listed (damaged files are "
                    + "always listed first); all of them are in the capture_files table.");
            raw("</p>");
        }
        raw("</section>");
    }

    /**
     * The capture sources, when there is more to say than one source read as it was: each source's files were read
     * as one capture, and their gaps, duplicate frames and skipped copies are listed.
     */
    private void sources(List<ReportData.Source> sources) {
        boolean plain = sources.size() <= 1 && sources.stream().allMatch(s -> s.gaps() == 0
                && s.duplicateFrames() == 0 && s.copiesSkipped() == 0);
        if (plain) {
            return;
        }
        raw("<h3>Capture sources</h3><p class=\"note\">");
        text("Each source's files were read in time order as one capture; connections, stream numbers and frame "
                + "numbers are per source (report --source NAME shows one).");
        raw("</p><div class=\"scroll\"><table class=\"list sources\"><thead><tr><th>source</th><th>files</th>"
                + "<th>frames</th><th>gaps between files</th><th>duplicate frames</th><th>copies skipped</th>"
                + "</tr></thead><tbody>");
        for (ReportData.Source s : sources) {
            raw(s.gaps() > 0 ? "<tr class=\"bad\">" : "<tr>");
            raw("<td class=\"capture\">");
            capture(s.name());
            raw("</td>");
            cells(Integer.toString(s.files()), Format.count(s.frames()), s.gaps() == 0 ? "none"
                            : s.gaps() + " (" + Format.duration(s.gapMicros()) + "; connections across one may lack "
                            + "frames)", Format.count(s.duplicateFrames()), Integer.toString(s.copiesSkipped()));
            raw("</tr>");
        }
        raw("</tbody></table></div>");
    }

    private void method(ReportData d) {
        ReportData.Method m = d.method();
        raw("<section id=\"method\"><h2>How the numbers were measured</h2><p><b>");
        text("Where the capture was taken: ");
        raw("</b>");
        text(m.vantageText());
        raw("</p><div class=\"scroll\"><table class=\"list\"><tbody>");
        for (Map.Entry<String, Long> e : m.vantage().entrySet()) {
            row("connections with vantage " + e.getKey(), Format.count(e.getValue()));
        }
        for (Map.Entry<String, Long> e : m.ackDelayMethods().entrySet()) {
            row("ACK delays measured " + e.getKey(), Format.count(e.getValue()));
        }
        raw("</tbody></table></div><ul class=\"notes\">");
        for (String n : m.notes()) {
            raw("<li>");
            text(n);
            raw("</li>");
        }
        ReportData.Limits l = d.limits();
        raw("<li>");
        text("This page summarises rather than lists, so it stays small for any capture: percentiles are exact; "
                + "histograms are pre-binned (" + l.histogramBinsPerDecade() + " bins per decade); the timeline has "
                + "at most " + l.timelineBuckets() + " intervals; it shows the " + l.endpoints() + " busiest "
                + "endpoints (charts for " + l.chartedEndpoints() + "), the " + l.worstConnections() + " worst "
                + "connections (flow graphs of at most " + l.ladderRows() + " frames), the " + l.slowestRequests()
                + " slowest requests and " + l.files() + " files. The Parquet tables hold every row.");
        raw("</li></ul></section>");
    }

    // ---- helpers --------------------------------------------------------------------------------------------

    private void row(String k, String v) {
        raw("<tr><th>");
        text(k);
        raw("</th><td>");
        text(v);
        raw("</td></tr>");
    }

    private void cells(String... values) {
        for (String v : values) {
            raw("<td>");
            text(v);
            raw("</td>");
        }
    }

    /** Markup written by this class (constants and numbers it formats itself). */
    private void raw(String markup) {
        sb.append(markup);
    }

    /** Anything else: bounded, hidden characters made visible, escaped. */
    private void text(String s) {
        Text.html(sb, s, 4000);
    }

    /** A string quoted from a capture (file name, HTTP field): as {@link #text}, with a tighter bound. */
    private void capture(String s) {
        Text.html(sb, s, Text.MAX_CHARS);
    }

    private static final String CSS = """
            :root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--soft:#f6f8fa;--bad:#c5221f;\
            --badbg:#fdecea;--good:#137333;--goodbg:#e6f4ea;--accent:#1a73e8}
            *{box-sizing:border-box}
            body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;\
            color:var(--fg);background:var(--bg)}
            header.top{background:#24292f;color:#fff;padding:12px 24px}
            header .brand{font-weight:600;font-size:17px}
            header .meta{color:#c9d1d9;font-size:13px;word-break:break-all}
            main{max-width:1180px;margin:0 auto;padding:8px 24px 40px}
            h1{font-size:26px;line-height:1.25;margin:4px 0 10px}
            h2{font-size:21px;margin:36px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}
            h3{font-size:17px;margin:22px 0 8px}
            h4{font-size:14px;margin:12px 0 4px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
            .verdict{margin:20px 0 8px;padding:18px 22px;border-radius:10px;border-left:8px solid}
            .verdict.stall{background:var(--badbg);border-color:var(--bad)}
            .verdict.ok{background:var(--goodbg);border-color:var(--good)}
            .verdict .label{font-weight:700;text-transform:uppercase;font-size:13px;letter-spacing:.06em}
            .verdict.stall .label{color:var(--bad)} .verdict.ok .label{color:var(--good)}
            .verdict .summary{font-size:16px;margin:0 0 6px}
            .verdict .more{margin:0 0 4px;font-size:14px}
            .verdict .fixes h2{border:0;margin:14px 0 4px;font-size:17px}
            .verdict ol{margin:0;padding-left:22px}
            nav.toc{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:14px;margin:10px 0}
            a{color:var(--accent)}
            .cards{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0 12px}
            .card{flex:1 1 150px;background:var(--soft);border:1px solid var(--line);border-radius:8px;padding:8px 12px}
            .card .v{font-size:24px;font-weight:650}
            .card .l{font-size:13px;color:var(--muted)}
            .card.bad .v{color:var(--bad)} .card.good .v{color:var(--good)}
            .scroll{overflow-x:auto}
            table{border-collapse:collapse;font-size:14px;margin:6px 0}
            th,td{padding:4px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
            table.numbers td{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
            table.numbers th{font-weight:500}
            table.numbers .detail{display:block;font-size:12px;color:var(--muted)}
            td.timer-band{background:var(--badbg);color:var(--bad);font-weight:650}
            table.list td{font-variant-numeric:tabular-nums}
            table.overview td:not(:first-child){text-align:right}
            table.nowrap td{white-space:nowrap}
            td.capture{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;\
            min-width:14ch;max-width:420px;overflow-wrap:anywhere}
            table.list td:not(.capture):not(.wrap){white-space:nowrap}
            td.wrap{min-width:24ch}
            tr.bad td{background:var(--badbg)}
            .finding{border:1px solid var(--line);border-left:6px solid;border-radius:8px;padding:6px 18px 10px;\
            margin:12px 0}
            .finding.problem{border-left-color:var(--bad)} .finding.ok{border-left-color:var(--good)}
            .finding .where{font-weight:400;color:var(--muted);font-size:14px}
            .note{color:var(--muted);font-size:13.5px}
            .empty{color:var(--muted);font-style:italic}
            .evidence-line{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;\
            overflow-wrap:anywhere}
            .grid{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:14px}
            figure{margin:0;border:1px solid var(--line);border-radius:8px;padding:8px;break-inside:avoid}
            figcaption{font-size:13.5px} figcaption span{color:var(--muted)}
            svg.chart{display:block;width:100%;height:auto}
            svg.ladder{min-width:640px}
            svg text{font:11px system-ui,sans-serif;fill:#444}
            svg .tick{fill:#59636e} svg .empty{font-size:14px;fill:#59636e}
            svg .grid{stroke:#e6e9ed;stroke-width:1} svg .axis{stroke:#8c959f;stroke-width:1}
            svg .bar{fill:#8ab4f8} svg .bar:hover{fill:#1a73e8}
            svg .cdf{fill:none;stroke:#174ea6;stroke-width:1.6}
            svg .timer{stroke:#c5221f;stroke-width:1.2;stroke-dasharray:5 3}
            svg .timer-label{fill:#c5221f;font-weight:600}
            svg .pmark{fill:#24292f} svg .plabel{font-size:10px;fill:#24292f}
            svg .series{fill:none;stroke-width:1.6;stroke-linejoin:round}
            .s0{stroke:#c5221f;background:#c5221f} .s1{stroke:#e37400;background:#e37400}
            .s2{stroke:#1a73e8;background:#1a73e8} .s3{stroke:#137333;background:#137333}
            svg .req{fill:#c0c6cc} svg .stall{fill:#c5221f}
            .legend{display:flex;flex-wrap:wrap;gap:4px 16px;font-size:13px;color:var(--muted)}
            .sw{display:inline-block;width:14px;height:10px;margin-right:5px;border-radius:2px;vertical-align:middle}
            .sw.req{background:#c0c6cc} .sw.stall{background:#c5221f}
            details.conn{border:1px solid var(--line);border-radius:8px;margin:10px 0;padding:4px 12px}
            details.conn summary{cursor:pointer;font-weight:600;padding:4px 0}
            svg .lifeline{stroke:#57606a;stroke-width:2}
            svg .lhead{font-size:12.5px;font-weight:650;fill:#1f2328}
            svg .arrow{stroke:#57606a;stroke-width:1.3} svg .arrow.data{stroke:#1a73e8;stroke-width:1.8}
            svg .arrowhead{fill:#57606a}
            svg .llabel{font:11.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;fill:#1f2328}
            svg .linfo{font:11px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;fill:#0b57d0}
            svg .lnote{font-size:11px;font-weight:600;fill:#8a1c12}
            svg .ltime{font:11px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
            svg .ldelta{font-size:10.5px;fill:#59636e} svg .ldelta.slow{fill:#c5221f;font-weight:700}
            svg .lframe{font-size:10px;fill:#8c959f}
            svg .gap{fill:#f6f8fa;stroke:#d1d9e0;stroke-dasharray:3 3} svg .lgap{fill:#59636e;font-style:italic}
            svg .hl{stroke:none}
            .m-held{fill:#fde7b0;background:#fde7b0} .m-delayed{fill:#f9c9c5;background:#f9c9c5}
            .m-resumed{fill:#ccebd6;background:#ccebd6} .m-retrans{fill:#e4d7f5;background:#e4d7f5}
            .m-other{fill:#eef1f4;background:#eef1f4}
            ul.notes li{margin:4px 0}
            footer{max-width:1180px;margin:0 auto;padding:16px 24px 30px;color:var(--muted);font-size:13px;\
            border-top:1px solid var(--line)}
            @media (max-width:760px){
             main{padding:4px 12px 30px} header.top{padding:10px 12px}
             h1{font-size:21px} .grid{grid-template-columns:1fr}
             .card{flex:1 1 40%} .card .v{font-size:20px}
             th,td{padding:3px 6px}
             table.numbers .detail{display:none}
            }
            @media print{
             header.top{background:none;color:#000;border-bottom:2px solid #000;padding:0 0 6px}
             header .meta{color:#333}
             nav.toc{display:none}
             main{max-width:none;padding:0}
             .verdict,.card,td.timer-band,tr.bad td,.m-held,.m-delayed,.m-resumed,.m-retrans{\
            -webkit-print-color-adjust:exact;print-color-adjust:exact}
             h2{break-after:avoid} figure,.finding,details.conn,table{break-inside:avoid}
             .grid{grid-template-columns:repeat(2,minmax(0,1fr))}
             details.conn::details-content{content-visibility:visible;display:contents}
             .scroll{overflow:visible}
             table{font-size:11px} th,td{padding:2px 5px}
             table.nowrap td,table.list td:not(.capture):not(.wrap){white-space:normal}
             svg.ladder{min-width:0}
             a{color:inherit;text-decoration:none}
            }
            """;
}
