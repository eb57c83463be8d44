package io.ackscope.report;

import io.ackscope.tcp.Cause;
import io.ackscope.tcp.DelayedAckTimer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The page leads with the causes of the {@code findings} table, on the sample captures analysed by the
 * real {@code analyze}: the verdict only at 1% of the response time or more, the endpoints where time was lost
 * first, every link pointing at something drawn, and a timeline that leaves out the empty day between captures.
 */
class ReportCausesTest {
    static final Path LAB_OFF = Path.of("sample-pcaps", "lab-nginx-nodelay-off.pcap.gz");
    static final Path LAB_ON = Path.of("sample-pcaps", "lab-nginx-nodelay-on.pcap.gz");
    static final Path LOSS = Path.of("sample-pcaps", "lab-cause-loss.pcap.gz");
    static final Path SYN_DROP = Path.of("sample-pcaps", "lab-cause-syn-drop.pcap.gz");
    static final Path DELACK_200 = Path.of("sample-pcaps", "lab-cause-delack-200.pcap.gz");

    /** The four captures in one run: three server endpoints, recorded a day apart (12-02 and 12-03). */
    static Path multi() throws IOException {
        return AnalyzedCaptures.tables("multi-endpoint", LAB_OFF, LAB_ON, LOSS, SYN_DROP);
    }

    @Test
    void naglePaysTheVerdictOnTheLabCapture() throws IOException {
        ReportData d = Report.data(AnalyzedCaptures.tables(LAB_OFF), ReportFilter.ALL, true);
        assertTrue(d.verdict().found(), d.verdict().headline());
        assertEquals("NAGLE_SERVER_HELD", d.verdict().cause());
        ReportData.CauseRow top = d.causes().get(0);
        assertEquals("NAGLE_SERVER_HELD", top.cause());
        assertTrue(top.share() > 0.97 && top.share() < 0.99, "share " + top.share());
        assertEquals(266, top.requests());
        assertNotNull(top.evidence(), "the verdict's evidence is drawn");
        assertEquals(top.evidence(), d.verdict().evidence());
        assertEquals(top.evidence(), d.worstConnections().get(0).anchor());
        // the verdict says how much of the response time its causes leave unexplained
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "explain ([0-9.]+)% of its response time; ([0-9.]+)% is unattributed").matcher(d.verdict().summary());
        assertTrue(m.find(), d.verdict().summary());
        double explained = Double.parseDouble(m.group(1));
        assertTrue(explained >= 100 * top.share() - 0.05 && explained <= 100, d.verdict().summary());
        assertEquals(100, explained + Double.parseDouble(m.group(2)), 0.11, d.verdict().summary());
        // the client's Linux timer at 40 ms: the cause's own fixes, TCP_QUICKACK on the client among them
        assertEquals(Cause.NAGLE_SERVER_HELD.fixes, d.verdict().fixes());
        assertEquals(Cause.NAGLE_SERVER_HELD.fixInOneLine, top.fix());
        assertLinksResolve(HtmlReport.render(d, "now", null));
    }

    @Test
    void a200msClassStallNamesItsTimerAndTheDelayingStacksFixes() throws IOException {
        ReportData d = Report.data(AnalyzedCaptures.tables(DELACK_200), ReportFilter.ALL, true);
        assertEquals("NAGLE_SERVER_HELD", d.verdict().cause(), d.verdict().headline());
        DelayedAckTimer timer = DelayedAckTimer.CLASS_200MS;
        assertTrue(d.verdict().summary().contains("(" + timer.words + ")"), d.verdict().summary());
        assertEquals(timer.fixes(Cause.NAGLE_SERVER_HELD), d.verdict().fixes());
        String perStack = d.verdict().fixes().get(d.verdict().fixes().size() - 1);
        assertTrue(perStack.contains("TcpAckFrequency") && perStack.contains("net.inet.tcp.delayed_ack")
                && perStack.contains("TCP_QUICKACK"), perStack);
        assertEquals(timer.oneLineFix(Cause.NAGLE_SERVER_HELD), d.causes().get(0).fix());
        ReportData.Finding f = d.endpoints().get(0).findings().get(0);
        assertEquals("NAGLE_SERVER_HELD", f.kind());
        assertTrue(f.evidence().stream().anyMatch(l -> l.contains("after the data (median of 20 stalls): "
                + timer.words + ";")), f.evidence().toString());
        assertLinksResolve(HtmlReport.render(d, "now", null));
    }

    @Test
    void healthyCapturesHaveNoVerdictStyled() throws IOException {
        for (Path capture : List.of(AnalyzedCaptures.GOOD, LAB_ON)) {
            ReportData d = Report.data(AnalyzedCaptures.tables(capture), ReportFilter.ALL, true);
            assertFalse(d.verdict().found(), capture + ": " + d.verdict().headline());
            assertEquals("No cause found", d.verdict().headline());
            for (ReportData.CauseRow c : d.causes()) {
                assertFalse(c.verdict(), capture + ": " + c.cause() + " " + c.share());
            }
            String html = HtmlReport.render(d, "now", null);
            assertFalse(html.contains("class=\"verdict stall\""), capture.toString());
            assertFalse(html.contains("class=\"finding problem\""), capture.toString());
            assertFalse(html.contains("<tr class=\"bad\""), capture.toString());
            assertFalse(html.contains("card bad"), capture.toString());
            assertLinksResolve(html);
        }
        // the lab's nodelay run has spurious retransmissions that cost nothing: listed, in grey
        ReportData on = Report.data(AnalyzedCaptures.tables(LAB_ON), ReportFilter.ALL, false);
        assertEquals(List.of("SPURIOUS_RETRANSMISSION"), on.causes().stream().map(ReportData.CauseRow::cause).toList());
        assertTrue(HtmlReport.render(on, "now", null)
                .contains("<tr class=\"minor\" data-cause=\"SPURIOUS_RETRANSMISSION\""));
    }

    @Test
    void multiEndpointRunLeadsWithTheStallingEndpointAndEveryLinkResolves() throws IOException {
        ReportData d = Report.data(multi(), ReportFilter.ALL, true);
        String stalling = "127.0.0.1:41859";
        assertEquals("NAGLE_SERVER_HELD", d.verdict().cause());
        assertEquals(stalling, d.causes().get(0).server());
        assertTrue(d.verdict().headline().contains(stalling), d.verdict().headline());
        // the endpoints where time was lost come first (the healthy, busiest one, 4,995 requests, last)
        assertEquals(List.of(stalling, "10.218.0.2:8080", "127.0.0.1:44557"),
                d.endpoints().stream().map(ReportData.Endpoint::server).toList());
        assertTrue(d.endpoints().get(2).requests() > d.endpoints().get(0).requests());
        // the verdict's link opens a connection of the stalling server
        ReportData.Connection shown = connection(d, d.verdict().evidence());
        assertEquals(stalling, shown.server());
        assertNull(shown.ladder().unavailable());
        // every cause with evidence in a drawn graph links to a connection of its own server
        for (ReportData.CauseRow c : d.causes()) {
            if (c.evidence() != null) {
                assertEquals(c.server(), connection(d, c.evidence()).server(), c.cause());
                assertTrue(c.evidenceFrames().contains(c.evidenceFrame()), c.cause());
            }
            assertEquals(c.share() >= 0.01, c.verdict(), c.cause() + " " + c.share());
        }
        List<String> minor = d.causes().stream().filter(c -> !c.verdict()).map(ReportData.CauseRow::cause).toList();
        assertEquals(List.of("FAST_RETRANSMIT", "SPURIOUS_RETRANSMISSION"), minor);

        String html = HtmlReport.render(d, "now", null);
        assertLinksResolve(html);
        // the first diagnosis card is the stalling endpoint's, styled as a problem; sub-1% causes are minor
        Matcher card = Pattern.compile("<article class=\"finding (\\w+)\" data-kind=\"(\\w+)\"><h3>[^<]*"
                + "<span class=\"where\">([^<]*)</span>").matcher(html);
        assertTrue(card.find());
        assertEquals(List.of("problem", "NAGLE_SERVER_HELD", stalling), List.of(card.group(1), card.group(2),
                card.group(3)));
        while (card.find()) {
            boolean sub1 = minor.contains(card.group(2));
            assertEquals(sub1 ? "minor" : "problem", card.group(1), card.group(2));
        }
        for (String cause : minor) {
            assertTrue(html.contains("<tr class=\"minor\" data-cause=\"" + cause + "\""), cause);
        }
    }

    @Test
    void everyVerdictCauseHasItsEvidenceDrawnBeyondTheGraphBudget() throws IOException {
        // nine lab captures, each its own cause at the one lab server (two of them the nginx labs'): more causes of
        // 1% or more than the page's budget of worst connections
        List<Path> labs = new ArrayList<>(List.of(LOSS, SYN_DROP, LAB_OFF, DELACK_200));
        for (String lab : List.of("churn", "server-slow", "network-delay", "idle-restart", "window-limited")) {
            labs.add(Path.of("sample-pcaps", "lab-cause-" + lab + ".pcap.gz"));
        }
        ReportData d = Report.data(AnalyzedCaptures.tables("many-causes", labs.toArray(new Path[0])),
                ReportFilter.ALL, true);
        int budget = ReportBuilder.LIMITS.worstConnections();
        List<ReportData.CauseRow> verdicts = d.causes().stream().filter(ReportData.CauseRow::verdict).toList();
        assertTrue(verdicts.size() > budget, verdicts.size() + " verdict causes: " + d.causes());
        Set<String> drawn = new HashSet<>();
        for (ReportData.Connection c : d.worstConnections()) {
            drawn.add(c.anchor());
        }
        for (ReportData.CauseRow c : verdicts) {
            assertNotNull(c.evidence(), c.cause() + " at " + c.server() + " has no graph");
            assertTrue(drawn.contains(c.evidence()), c.cause() + " links to an undrawn #" + c.evidence());
            assertTrue(c.evidenceFrames().contains(c.evidenceFrame()), c.toString());
        }
        assertTrue(d.worstConnections().size() > budget, "the budget gave way to the causes");
        String html = HtmlReport.render(d, "now", null);
        // churn's count is its TIME_WAIT collisions: tshark marks "TCP port numbers reused" on 2 SYNs of the churn
        // lab and on none of the others (the labs' server is one endpoint of the run)
        assertTrue(Pattern.compile("\\d+ occurrences \\(2 SYNs on a 4-tuple closed less than 60 s before: "
                + "TIME_WAIT collisions\\) on \\d+ connections").matcher(html).find(), "churn's count in words");
        for (ReportData.CauseRow c : d.causes()) {
            if (c.evidence() == null && !c.evidenceFrames().isEmpty()) {
                assertFalse(c.verdict(), c.toString());
                assertTrue(html.contains("(no graph: " + CausesSection.undrawn(d) + ")"), c.toString());
            }
        }
        assertLinksResolve(html);
    }

    @Test
    void timelineLeavesOutTheDayBetweenTheCaptures() throws IOException {
        ReportData d = Report.data(multi(), ReportFilter.ALL, false);
        ReportData.Timeline t = d.timeline();
        // 12-02 11:20 (the nginx runs), 12-03 11:43 (syn-drop) and 12:08 (loss): three periods
        assertEquals(3, t.periods().size(), t.periods().toString());
        long span = d.input().lastMicros() - d.input().firstMicros();
        assertTrue(span > 86_400_000_000L, "the captures are a day apart");
        // equal buckets over the whole span would be minutes wide; over the busy periods they are under a second
        assertTrue(t.bucketMicros() < 1_000_000, "bucket " + t.bucketMicros());
        long inTimeline = 0;
        for (long n : t.requests()) {
            inTimeline += n;
        }
        assertEquals(d.input().requests(), inTimeline, "every request is in a bucket");
        assertEquals(0, t.outside());
        for (ReportData.Period p : t.periods()) {
            long n = 0;
            for (int i = p.firstBucket(); i < p.firstBucket() + p.buckets(); i++) {
                n += t.requests()[i];
            }
            assertTrue(n > 0, "period " + p + " has requests");
        }
        String html = HtmlReport.render(d, "now", null);
        assertEquals(2, html.split("class=\"break\"", -1).length - 1, "two breaks in the axis");
    }

    /** Cause names, endpoints and fixes come from a table anyone could have written: they are text, never markup. */
    @Test
    void causeTextFromTheTablesIsEscaped() throws IOException {
        ReportData d = Report.data(AnalyzedCaptures.tables(LAB_ON), ReportFilter.ALL, false);
        ReportData.CauseRow evil = new ReportData.CauseRow("<b>10.0.0.1</b>:80", "<script>alert(1)</script>",
                "<img src=x onerror=alert(1)>", false, 0.001, 5, 1, 1, 1, 1, "\"><svg onload=alert(1)>",
                List.of(1L), null, null);
        ReportData x = new ReportData(d.tablesDir(), d.filter(), d.input(), d.verdict(), List.of(evil), 0, true,
                d.endpoints(), d.endpointsNotShown(), d.timeline(), d.worstConnections(), d.slowestRequests(),
                d.method(), d.limits(), d.sourcePairs());
        String html = HtmlReport.render(x, "now", null);
        assertFalse(html.contains("<script>"), "script");
        assertFalse(html.contains("<img src=x"), "img");
        assertFalse(html.contains("<svg onload"), "svg");
        assertFalse(html.contains("<b>10.0.0.1"), "b");
        assertTrue(html.contains("data-cause=\"&lt;script&gt;alert(1)&lt;/script&gt;\""), "the name, escaped");
    }

    /** One stall in 3,995 requests is a real stall but not a red card: the card turns red at the verdict share. */
    @Test
    void aRareStallIsNotStyledAsTheProblem() throws IOException {
        ReportData d = Report.data(AnalyzedCaptures.tables(LAB_ON), ReportFilter.ALL, false);
        ReportData.Endpoint e = d.endpoints().get(0);
        ReportData.Endpoint rare = new ReportData.Endpoint(e.server(), e.connections(), 3_995, e.laterRequests(),
                1, 1, 0, 43_000, 0.0004, 43_000, e.distributions(), e.ackClasses(), e.vantage(), e.findings());
        ReportData x = new ReportData(d.tablesDir(), d.filter(), d.input(), d.verdict(), d.causes(),
                d.causesNotShown(), true, List.of(rare), 0, d.timeline(), d.worstConnections(),
                d.slowestRequests(), d.method(), d.limits(), d.sourcePairs());
        String html = HtmlReport.render(x, "now", null);
        assertTrue(html.contains("<div class=\"card\" data-card=\"stalls\"><div class=\"v\">1</div>"), "neutral");
        assertTrue(html.contains("<div class=\"card good\" data-card=\"stall-share\">"), "share under 1%");
        assertFalse(html.contains("card bad"));
        // the headline's wording for a stall that is costly but rare
        assertEquals("Rare stall: 1 of 3,995 responses from h:1 waited ~43.0 ms for the client's delayed ACK",
                VerdictText.stallHeadline(1, 3_995, "responses from h:1", 43_000, "client"));
        assertEquals("Stall found: responses from h:1 wait ~43.0 ms for the client's delayed ACK",
                VerdictText.stallHeadline(266, 272, "responses from h:1", 43_000, "client"));
    }

    @Test
    void busyPeriodsCutOnlyLongGaps() {
        BusyPeriods b = new BusyPeriods();
        long s = 1_000_000L;
        b.add(0, 5 * s);
        b.add(6 * s, 10 * s);          // a 1 s pause: kept on the axis
        b.add(3_600 * s, 3_605 * s);   // an hour later
        b.add(3_604 * s, 3_610 * s);   // overlaps the previous
        List<long[]> p = b.periods(0, 3_610 * s);
        assertEquals(2, p.size());
        assertEquals(List.of(0L, 10 * s), List.of(p.get(0)[0], p.get(0)[1]));
        assertEquals(List.of(3_600 * s, 3_610 * s), List.of(p.get(1)[0], p.get(1)[1]));
        // clipped to a window inside the first period: one period
        assertEquals(1, b.periods(2 * s, 8 * s).size());
    }

    private static ReportData.Connection connection(ReportData d, String anchor) {
        for (ReportData.Connection c : d.worstConnections()) {
            if (c.anchor().equals(anchor)) {
                return c;
            }
        }
        throw new AssertionError("no connection drawn for #" + anchor);
    }

    private static void assertNull(Object o) {
        assertEquals(null, o);
    }

    /** Every internal link ({@code href="#id"}) of the page has an element with that id. */
    static void assertLinksResolve(String html) {
        Set<String> ids = new HashSet<>();
        Matcher id = Pattern.compile("\\sid=\"([^\"]+)\"").matcher(html);
        while (id.find()) {
            ids.add(id.group(1));
        }
        List<String> broken = new ArrayList<>();
        Matcher href = Pattern.compile("href=\"#([^\"]*)\"").matcher(html);
        int links = 0;
        while (href.find()) {
            links++;
            if (!ids.contains(href.group(1))) {
                broken.add(href.group(1));
            }
        }
        assertTrue(links > 5, "the page has links");
        assertEquals(List.of(), broken, "links without a target");
    }
}
