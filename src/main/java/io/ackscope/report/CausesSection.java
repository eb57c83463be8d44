package io.ackscope.report;

import io.ackscope.tcp.CauseRanking;

import java.util.List;

/**
 * The page's causes: the table the page leads with (every cause of the {@code findings} table, costliest first,
 * those under the verdict threshold muted) and the diagnosis cards of the endpoints where the most time was lost.
 * Same safety rule as {@link HtmlReport}: markup from constants here, every value through {@link HtmlPage#text};
 * an anchor is written only as {@link Selection#anchor} made it (letters, digits and dashes).
 */
final class CausesSection {
    private CausesSection() {
    }

    /** The ranked causes, with what each cost, its fix in one line and a link to its evidence. */
    static void causes(HtmlPage out, ReportData d) {
        out.raw("<section id=\"causes\"><h2>Causes, by time lost</h2><p class=\"note\">");
        out.text("Each row is one cause at one server endpoint, from the findings table that analyze wrote. Share: "
                + "time lost as a part of that endpoint's response time. A cause that cost at least "
                + Format.percent(CauseRanking.VERDICT_SHARE) + " may be the verdict; the ones below are listed in "
                + "grey." + (windowed(d.filter()) ? " Causes cover the whole capture of each endpoint, not only the "
                + "selected time window." : ""));
        out.raw("</p>");
        if (d.causes().isEmpty()) {
            out.raw("<p class=\"empty\">");
            out.text(d.findingsTable() ? "No cause found: no stall, handshake or loss-recovery wait, or zero "
                    + "window on the selected connections." : "These tables have no findings table (made by an "
                    + "older ackscope): run analyze again for the causes.");
            out.raw("</p></section>");
            return;
        }
        out.raw("<div class=\"scroll\"><table class=\"list causes\"><thead><tr><th>server</th><th>cause</th>"
                + "<th>share</th><th>time lost</th><th>requests</th><th>connections</th><th>fix</th>"
                + "<th>evidence</th></tr></thead><tbody>");
        for (ReportData.CauseRow c : d.causes()) {
            out.raw(c.verdict() ? "<tr class=\"bad\" data-cause=\"" : "<tr class=\"minor\" data-cause=\"");
            out.text(c.cause());
            out.raw("\">");
            // the server with its capture source ("addr:port at source") breaks anywhere rather than widen the table
            out.raw("<td class=\"wrap where\">");
            out.text(c.server());
            out.raw("</td>");
            wrapped(out, c.title());
            out.cells(Format.percent(c.share()), Format.duration(c.timeLostMicros()), Format.count(c.requests()),
                    Format.count(c.connections()));
            wrapped(out, c.fix());
            out.raw("<td class=\"wrap\">");
            if (c.evidence() != null) {
                out.raw("<a href=\"#" + c.evidence() + "\">");
                out.text("flow graph, frame " + c.evidenceFrame());
                out.raw("</a>");
            } else {
                out.text(c.evidenceFrames().isEmpty() ? "" : "frames " + frames(c.evidenceFrames())
                        + (c.verdict() ? "" : " (no graph: " + undrawn(d) + ")"));
            }
            out.raw("</td></tr>");
        }
        out.raw("</tbody></table></div>");
        if (d.causesNotShown() > 0) {
            out.raw("<p class=\"note\">");
            out.text(Format.plural(d.causesNotShown(), "smaller cause is", "smaller causes are") + " not listed "
                    + "(they are in the findings table).");
            out.raw("</p>");
        }
        out.raw("</section>");
    }

    /**
     * Why a cause below the verdict share has no flow graph: the page draws the evidence of every cause of at least
     * that share and, for the others, only while it has drawn fewer than its bound of graphs.
     */
    static String undrawn(ReportData d) {
        return "the page draws the evidence of every cause of " + Format.percent(CauseRanking.VERDICT_SHARE)
                + " or more, and of smaller ones only while fewer than " + d.limits().worstConnections()
                + " graphs are drawn";
    }

    private static void wrapped(HtmlPage out, String text) {
        out.raw("<td class=\"wrap\">");
        out.text(text);
        out.raw("</td>");
    }

    /** Whether the filter ({@link ReportFilter#describe}) has a time window. */
    private static boolean windowed(String filter) {
        for (String part : filter.split("; ")) {
            if (part.startsWith("from ") || part.startsWith("until ")) {
                return true;
            }
        }
        return false;
    }

    private static String frames(List<Long> frames) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < frames.size() && i < 4; i++) {
            sb.append(i == 0 ? "" : ", ").append(frames.get(i));
        }
        return frames.size() > 4 ? sb + ", ..." : sb.toString();
    }

    /** The findings of the endpoints where the most time was lost in full; the others' causes one line each. */
    static void diagnosis(HtmlPage out, ReportData d) {
        out.raw("<section id=\"diagnosis\"><h2>Diagnosis and evidence</h2>");
        List<ReportData.Endpoint> eps = d.endpoints();
        int full = Math.min(eps.size(), d.limits().chartedEndpoints());
        for (ReportData.Endpoint e : eps.subList(0, full)) {
            for (ReportData.Finding f : e.findings()) {
                finding(out, e, f);
            }
        }
        boolean listed = false;
        for (ReportData.Endpoint e : eps.subList(full, eps.size())) {
            for (ReportData.Finding f : e.findings()) {
                if ("ok".equals(f.severity())) {
                    continue;
                }
                if (!listed) {
                    out.raw("<h3>Other endpoints</h3><ul class=\"others\">");
                    listed = true;
                }
                out.raw("problem".equals(f.severity()) ? "<li><b>" : "<li class=\"minor\"><b>");
                out.text(e.server());
                out.raw("</b>: ");
                out.text(f.title() + " — " + (f.evidence().isEmpty() ? "" : f.evidence().get(0)));
                out.raw("</li>");
            }
        }
        if (listed) {
            out.raw("</ul>");
        }
        out.raw("</section>");
    }

    private static void finding(HtmlPage out, ReportData.Endpoint e, ReportData.Finding f) {
        String cls = switch (f.severity()) {
            case "problem" -> "problem";
            case "minor" -> "minor";
            default -> "ok";
        };
        out.raw("<article class=\"finding " + cls + "\" data-kind=\"");
        out.text(f.kind());
        out.raw("\"><h3>");
        out.text(f.title());
        out.raw(" <span class=\"where\">");
        out.text(e.server() + ("minor".equals(cls) ? " · under " + Format.percent(CauseRanking.VERDICT_SHARE)
                + " of response time, not the verdict" : ""));
        out.raw("</span></h3>");
        if (!f.explanation().isEmpty()) {
            out.raw("<p>");
            out.text(f.explanation());
            out.raw("</p>");
        }
        list(out, "Evidence", "<ul class=\"evidence\">", "</ul>", f.evidence());
        list(out, "Fixes", "<ol class=\"fixes-list\">", "</ol>", f.fixes());
        if (f.example() != null) {
            out.raw("<p class=\"note\"><a href=\"#" + f.example() + "\">");
            out.text("See it in the flow graph below");
            out.raw("</a></p>");
        }
        out.raw("</article>");
    }

    private static void list(HtmlPage out, String title, String open, String close, List<String> items) {
        if (items.isEmpty()) {
            return;
        }
        out.raw("<h4>" + title + "</h4>" + open);
        for (String s : items) {
            out.raw("<li>");
            out.text(s);
            out.raw("</li>");
        }
        out.raw(close);
    }
}
