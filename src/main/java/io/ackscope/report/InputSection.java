package io.ackscope.report;

import io.ackscope.tcp.CauseRanking;

import java.util.List;
import java.util.Map;

/**
 * The page's last two sections, about the input rather than the findings: what was analysed (files, decoding,
 * capture sources) and how the numbers were measured (vantage, ACK-delay methods, the page's limits). Markup only
 * from constants here; everything else through {@link HtmlPage#text} and {@link HtmlPage#capture}.
 */
final class InputSection {
    private InputSection() {
    }

    static void write(HtmlPage out, ReportData d) {
        analysed(out, d);
        method(out, d);
    }

    private static void analysed(HtmlPage out, ReportData d) {
        ReportData.Input in = d.input();
        out.raw("<section id=\"input\"><h2>What was analysed</h2><div class=\"cards\">");
        out.card("files", Format.count(in.files()), (in.files() == 1 ? "capture file (" : "capture files (")
                + String.join(", ", in.formats()) + ")", null);
        out.card("bytes", Format.bytes(in.fileBytes()), "read", null);
        out.card("frames", Format.count(in.frames()), in.frames() == 1 ? "frame" : "frames", null);
        out.card("tcp", Format.count(in.tcpFrames()), in.tcpFrames() == 1 ? "TCP frame analysed" : "TCP frames analysed",
                null);
        out.card("conns", Format.count(in.selected()), "of " + Format.plural(in.connections(), "connection",
                "connections") + " selected", null);
        out.card("damaged", Format.count(in.damagedFiles()), in.damagedFiles() == 1 ? "damaged file" : "damaged files",
                in.damagedFiles() > 0 ? "bad" : "good");
        out.raw("</div><p>");
        out.text(in.firstMicros() == null ? "No frame had a timestamp." : "Time span: " + Format.time(in.firstMicros())
                + " to " + Format.time(in.lastMicros()) + " (" + Format.duration(in.lastMicros() - in.firstMicros())
                + "). Selection: " + d.filter() + ".");
        out.raw("</p><h3>Decoding</h3><div class=\"scroll\"><table class=\"list\"><tbody>");
        out.row("decoded completely", Format.count(in.framesOk()) + " (" + Format.percent(in.framesOk(), in.frames())
                + ")");
        out.row("cut short by the snap length", Format.count(in.framesTruncated()));
        out.row("malformed", Format.count(in.framesMalformed()));
        out.row("unsupported link type or protocol", Format.count(in.framesUnsupported()));
        for (Map.Entry<String, Long> e : in.skippedByReason().entrySet()) {
            out.row("not TCP or not analysed: " + e.getKey(), Format.count(e.getValue()));
        }
        out.raw("</tbody></table></div>");
        sources(out, in.sources());
        out.raw("<h3>Files</h3><div class=\"scroll\"><table class=\"list files\"><thead><tr>"
                + "<th>#</th><th>file</th><th>format</th><th>size</th><th>frames</th><th>TCP</th><th>first frame</th>"
                + "<th>last frame</th><th>problems</th></tr></thead><tbody>");
        for (ReportData.CaptureFile f : in.fileList()) {
            boolean bad = f.errorOffset() != null || f.format() == null || f.tailProblem() != null;
            out.raw(bad ? "<tr class=\"bad\">" : "<tr>");
            out.cells(Integer.toString(f.index()));
            out.raw("<td class=\"capture\">");
            out.capture(f.file());
            out.raw("</td>");
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
            out.cells(f.format() == null ? "unreadable" : f.format() + " (" + f.readMode() + ")", Format.bytes(f.bytes()),
                    Format.count(f.frames()), Format.count(f.tcpFrames()),
                    f.firstMicros() == null ? "" : Format.time(f.firstMicros()),
                    f.lastMicros() == null ? "" : Format.time(f.lastMicros()));
            out.raw("<td class=\"wrap\">");
            out.capture(problems.toString());
            out.raw("</td></tr>");
        }
        out.raw("</tbody></table></div>");
        if (in.filesNotListed() > 0) {
            out.raw("<p class=\"note\">");
            out.text(Format.plural(in.filesNotListed(), "more file", "more files") + " not listed (damaged files are "
                    + "always listed first); all of them are in the capture_files table.");
            out.raw("</p>");
        }
        out.raw("</section>");
    }

    /**
     * The capture sources, when there is more to say than one source read as it was: each source's files were read
     * as one capture, and their gaps, duplicate frames and skipped copies are listed.
     */
    private static void sources(HtmlPage out, List<ReportData.Source> sources) {
        boolean plain = sources.size() <= 1 && sources.stream().allMatch(s -> s.gaps() == 0
                && s.duplicateFrames() == 0 && s.copiesSkipped() == 0 && s.notFollowing() == null);
        if (plain) {
            return;
        }
        out.raw("<h3>Capture sources</h3><p class=\"note\">");
        out.text("Each source's files were read in time order as one capture; connections, stream numbers and frame "
                + "numbers are per source (report --source NAME shows one).");
        out.raw("</p>");
        for (ReportData.Source s : sources) {
            if (s.followOnWarning() != null) {
                out.raw("<p class=\"bad\">");
                out.text("Warning: " + s.followOnWarning() + ".");
                out.raw("</p>");
            }
        }
        out.raw("<div class=\"scroll\"><table class=\"list sources\"><thead><tr><th>source</th><th>files</th>"
                + "<th>frames</th><th>gaps between files</th><th>duplicate frames</th><th>copies skipped</th>"
                + "<th>verdict</th></tr></thead><tbody>");
        for (ReportData.Source s : sources) {
            out.raw(s.gaps() > 0 ? "<tr class=\"bad\">" : "<tr>");
            out.raw("<td class=\"capture\">");
            out.capture(s.name());
            out.raw("</td>");
            out.cells(Integer.toString(s.files()), Format.count(s.frames()), s.gaps() == 0 ? "none"
                            : s.gaps() + " (" + Format.duration(s.gapMicros()) + "; connections across one may lack "
                            + "frames)", Format.count(s.duplicateFrames()), Integer.toString(s.copiesSkipped()),
                    s.verdict() == null ? "" : s.verdict());
            out.raw("</tr>");
        }
        out.raw("</tbody></table></div>");
    }

    private static void method(HtmlPage out, ReportData d) {
        ReportData.Method m = d.method();
        out.raw("<section id=\"method\"><h2>How the numbers were measured</h2><p><b>");
        out.text("Where the capture was taken: ");
        out.raw("</b>");
        out.text(m.vantageText());
        out.raw("</p><div class=\"scroll\"><table class=\"list\"><tbody>");
        for (Map.Entry<String, Long> e : m.vantage().entrySet()) {
            out.row("connections with vantage " + e.getKey(), Format.count(e.getValue()));
        }
        for (Map.Entry<String, Long> e : m.ackDelayMethods().entrySet()) {
            out.row("ACK delays measured " + e.getKey(), Format.count(e.getValue()));
        }
        out.raw("</tbody></table></div><ul class=\"notes\">");
        for (String n : m.notes()) {
            out.raw("<li>");
            out.text(n);
            out.raw("</li>");
        }
        ReportData.Limits l = d.limits();
        out.raw("<li>");
        out.text("This page summarises rather than lists, so it stays small for any capture: percentiles are exact; "
                + "histograms are pre-binned (" + l.histogramBinsPerDecade() + " bins per decade); the timeline has "
                + "at most " + l.timelineBuckets() + " intervals; it shows the " + l.endpoints() + " busiest "
                + "endpoints (charts for " + l.chartedEndpoints() + "), flow graphs (of at most " + l.ladderRows()
                + " frames) of the evidence of every cause of " + Format.percent(CauseRanking.VERDICT_SHARE)
                + " or more and of the worst connections, " + l.worstConnections() + " in all unless more causes "
                + "need one, the " + l.slowestRequests()
                + " slowest requests and " + l.files() + " files. The Parquet tables hold every row.");
        out.raw("</li></ul></section>");
    }
}
