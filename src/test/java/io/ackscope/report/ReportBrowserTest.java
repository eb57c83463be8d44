package io.ackscope.report;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reports that {@code analyze} writes for the sample captures, opened in real headless Chromium: what a reader
 * sees (verdict, numbers, charts, flow graph), that the page loads nothing and logs no error, and that a capture
 * crafted to inject markup shows up as text. Screenshots go to {@code target/report-screenshots/}.
 */
@Tag("browser")
class ReportBrowserTest {
    static final Path SHOTS = Path.of("target", "report-screenshots");
    static final String DAMAGED = "suri__bug-1450-04__tls_DER-incomplete-header.pcap";
    static Chromium chrome;

    @BeforeAll
    static void startBrowser() throws Exception {
        chrome = Chromium.start(AnalyzedCaptures.WORK);
    }

    @AfterAll
    static void stopBrowser() throws Exception {
        if (chrome != null) {
            chrome.close();
        }
    }

    /** Loads {@code html} in a fresh tab at {@code width} px, checking it made no request and logged no error. */
    private static Chromium.Page open(Path html, int width) {
        Chromium.Page p = chrome.newPage();
        p.viewport(width, 900);
        double ms = p.load(html.toAbsolutePath());
        System.out.printf(Locale.ROOT, "loaded %s (%,d bytes) in %.0f ms%n", html, size(html), ms);
        assertEquals(List.of(html.toAbsolutePath().toUri().toString()), List.copyOf(p.requests),
                "the page must request nothing but itself");
        assertEquals(List.of(), List.copyOf(p.errors), "console errors");
        return p;
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Number of SVG charts of a kind that the browser laid out with a non-empty box. */
    private static int renderedCharts(Chromium.Page p, String selector) {
        return (int) p.number("[...document.querySelectorAll('" + selector + "')].filter(e => {"
                + "const r = e.getBoundingClientRect(); return r.width > 50 && r.height > 50; }).length");
    }

    private static void screenshots(Chromium.Page p, String name) throws Exception {
        p.screenshot(SHOTS.resolve(name + "-top.png"), 0, 1400);
        double ladder = p.number("(() => { const e = document.querySelector('details.conn[open]');"
                + " return e ? e.getBoundingClientRect().top + window.scrollY : 0; })()");
        if (ladder > 0) {
            p.screenshot(SHOTS.resolve(name + "-flow-graph.png"), ladder, 1300);
        }
        double charts = p.number("document.getElementById('charts').getBoundingClientRect().top + window.scrollY");
        p.screenshot(SHOTS.resolve(name + "-charts.png"), charts, 1500);
    }

    @Test
    void latencyCaptureReportShowsTheStallItsNumbersChartsAndFlowGraph() throws Exception {
        Path dir = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY);
        ReportData data = Report.data(dir, ReportFilter.ALL, false);
        Chromium.Page p = open(dir.resolve(Report.FILE_NAME), 1280);

        assertEquals("verdict stall", p.string("document.getElementById('verdict').className"));
        String headline = p.string("document.querySelector('#verdict h1').textContent");
        assertTrue(headline.startsWith("Stall found: responses from 127.0.0.1:"), headline);
        assertTrue(headline.contains("for the client's delayed ACK"), headline);
        String verdict = p.string("document.getElementById('verdict').textContent");
        for (String fix : List.of("TCP_NODELAY", "TCP_QUICKACK", "tcp_nopush")) {
            assertTrue(verdict.contains(fix), "the fixes name " + fix);
        }
        assertEquals("NAGLE_SERVER_HELD", p.string("document.querySelector('#diagnosis .finding').dataset.kind"));

        // Headline numbers, as the reader sees them, are the model's (which a data test checks against the tables).
        ReportData.Endpoint e = data.endpoints().get(0);
        String card = "document.querySelector('.endpoint [data-card=\"%s\"] .v').textContent";
        assertEquals(Format.count(e.requests()), p.string(String.format(card, "requests")));
        assertEquals(Format.count(e.connections()), p.string(String.format(card, "connections")));
        assertEquals(Format.count(e.serverHeldStalls()), p.string(String.format(card, "stalls")));
        assertTrue(e.stallShare() > 0.9, "most response time is stall time: " + e.stallShare());
        for (String metric : List.of("ttfb", "response", "handshake_rtt", "data_rtt", "ack_delay")) {
            ReportData.Distribution d = e.distribution(metric);
            String row = "document.querySelector('.endpoint tr[data-metric=\"" + metric + "\"] td[data-stat=\"%s\"]')";
            assertEquals(d.p50Micros(), Long.valueOf(p.string(String.format(row, "p50") + ".dataset.us")), metric);
            assertEquals(d.p99Micros(), Long.valueOf(p.string(String.format(row, "p99") + ".dataset.us")), metric);
            assertEquals(Format.duration(d.maxMicros()), p.string(String.format(row, "max") + ".textContent"));
        }
        long responseP50 = Long.parseLong(p.string("document.querySelector('.endpoint tr[data-metric=\"response\"] "
                + "td[data-stat=\"p50\"]').dataset.us"));
        assertTrue(responseP50 >= 40_000 && responseP50 <= 48_000, "responses wait ~40 ms: " + responseP50);

        assertEquals(5, renderedCharts(p, "figure.dist svg.chart"));
        assertEquals(1, renderedCharts(p, "svg.chart.timeline"));
        assertEquals(1, renderedCharts(p, "details.conn[open] svg.chart.ladder"), "the worst flow graph is open");
        assertTrue(p.number("document.querySelectorAll('figure.dist[data-metric=\"ack_delay\"] rect.bar').length")
                > 5, "the ACK-delay histogram has bars");
        assertTrue(p.number("document.querySelectorAll('figure.dist line.timer').length") >= 10,
                "every distribution marks the 40 ms and 200 ms timers");
        for (String mark : List.of("m-held", "m-delayed", "m-resumed")) {
            assertTrue(p.number("document.querySelectorAll('details.conn[open] svg rect.hl." + mark + "').length")
                    >= 1, "the flow graph highlights " + mark);
        }
        assertTrue(p.string("document.querySelector('details.conn[open] svg').textContent")
                .contains("delayed ACK"), "the flow graph names the delayed ACK");
        screenshots(p, "latency");
    }

    @Test
    void goodCaptureReportSaysNoCauseFound() throws Exception {
        Path dir = AnalyzedCaptures.tables(AnalyzedCaptures.GOOD);
        Chromium.Page p = open(dir.resolve(Report.FILE_NAME), 1280);

        assertEquals("verdict ok", p.string("document.getElementById('verdict').className"));
        assertEquals("No cause found", p.string("document.querySelector('#verdict h1').textContent"));
        assertEquals("0", p.string("document.querySelector('.endpoint [data-card=\"stalls\"] .v').textContent"));
        assertEquals("NO_CAUSE", p.string("document.querySelector('#diagnosis .finding').dataset.kind"));
        assertEquals(0, p.number("document.querySelectorAll('svg rect.hl.m-held, svg rect.hl.m-delayed').length"));
        long responseP99 = Long.parseLong(p.string("document.querySelector('.endpoint tr[data-metric=\"response\"] "
                + "td[data-stat=\"p99\"]').dataset.us"));
        assertTrue(responseP99 < 36_000, "no response waits for a delayed-ACK timer: " + responseP99);
        assertEquals(5, renderedCharts(p, "figure.dist svg.chart"));
        assertEquals(1, renderedCharts(p, "svg.chart.timeline"));
        assertEquals(1, renderedCharts(p, "details.conn[open] svg.chart.ladder"));
        screenshots(p, "good");
    }

    @Test
    void narrowScreenNeedsNoSidewaysScrollingOutsideTablesAndFlowGraphs() throws Exception {
        Path html = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY).resolve(Report.FILE_NAME);
        Chromium.Page p = open(html, 390);
        assertTrue(p.number("document.documentElement.scrollWidth") <= 390,
                "the page is no wider than the screen: " + p.number("document.documentElement.scrollWidth"));
        assertEquals("1", p.string("String(getComputedStyle(document.querySelector('.grid')).gridTemplateColumns"
                + ".split(' ').length)"), "charts stack in one column");
        p.screenshot(SHOTS.resolve("latency-narrow.png"), 0, 2400);
    }

    @Test
    void printLayoutHidesNavigationAndPrintsClosedFlowGraphs() throws Exception {
        Path html = AnalyzedCaptures.tables(AnalyzedCaptures.LATENCY).resolve(Report.FILE_NAME);
        Chromium.Page p = open(html, 1280);
        p.media("print");
        assertEquals("none", p.string("getComputedStyle(document.querySelector('nav.toc')).display"));
        assertTrue(p.number("[...document.querySelectorAll('details.conn:not([open]) svg.ladder')].filter(e => "
                + "e.getBoundingClientRect().height > 50).length") >= 1, "closed flow graphs are printed too");
        byte[] pdf = p.pdf();
        assertEquals("%PDF", new String(pdf, 0, 4, StandardCharsets.US_ASCII));
        Files.write(SHOTS.resolve("latency.pdf"), pdf);
    }

    /**
     * The crafted capture, analysed together with a damaged capture from the corpus (a record whose captured length
     * is beyond any sane bound, at byte 5035), so the page must also say which file is damaged and where.
     */
    @Test
    void craftedCaptureShowsInjectedMarkupAsTextAndRunsNothing() throws Exception {
        Path input = Files.createDirectories(AnalyzedCaptures.WORK.resolve("crafted-input"));
        CraftedCapture.write(input.resolve("crafted-<b>&'x.pcap"));
        Files.copy(AnalyzedCaptures.corpus().resolve(DAMAGED), input.resolve(DAMAGED),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path dir = AnalyzedCaptures.tables(input);
        Path html = dir.resolve(Report.FILE_NAME);
        String page = Files.readString(html);
        assertFalse(page.toLowerCase(Locale.ROOT).contains("<script"), "no script element in the file");
        assertFalse(page.contains("<img"), "no img element in the file");
        assertEquals(1, page.split("</style>", -1).length - 1, "only the page's own style element");

        Chromium.Page p = open(html, 1280);
        assertEquals("undefined", p.string("typeof window.__ackscopePwned"), "no injected script ran");
        // Every element and attribute is one the renderer writes.
        Set<String> tags = new TreeSet<>(strings(p.eval("[...new Set([...document.querySelectorAll('*')]"
                + ".map(e => e.tagName.toLowerCase()))]")));
        Set<String> allowedTags = Set.of("html", "head", "meta", "title", "style", "body", "header", "div", "br",
                "main", "section", "h1", "h2", "h3", "h4", "p", "ol", "ul", "li", "nav", "a", "table", "thead",
                "tbody", "tr", "th", "td", "span", "b", "i", "article", "figure", "figcaption", "svg", "path", "rect",
                "line", "text", "tspan", "defs", "marker", "details", "summary", "footer");
        assertTrue(allowedTags.containsAll(tags), "unexpected elements: " + tags);
        Set<String> attrs = new TreeSet<>(strings(p.eval("[...new Set([...document.querySelectorAll('*')]"
                + ".flatMap(e => [...e.attributes].map(a => a.name)))]")));
        for (String a : attrs) {
            assertFalse(a.startsWith("on"), "event handler attribute " + a);
            assertFalse(a.equals("src") || a.equals("style"), "attribute " + a);
        }
        assertEquals(0, p.number("[...document.querySelectorAll('a')].filter(a => "
                + "!a.getAttribute('href').startsWith('#')).length"), "links stay on the page");

        // The request and the Host header are shown, as text, with control characters made visible.
        String text = p.string("document.body.innerText");
        assertTrue(text.contains(CraftedCapture.SCRIPT), "the request target is shown as text");
        assertTrue(text.contains("<img/src=x/onerror=\"window.__ackscopePwned=2\">"), "quotes survive as text");
        assertTrue(text.contains("<svg onload="), "the Host header is shown as text");
        String ladder = p.string("document.querySelector('details.conn[open] svg').textContent");
        assertTrue(ladder.contains("GET /\\x01\\x1b[31m<script>"), "the flow graph labels the request with its "
                + "text, control characters shown as \\xNN: " + ladder);
        assertTrue(text.contains("crafted-<b>&'x.pcap"), "the file name is shown as text");
        String damaged = p.string("[...document.querySelectorAll('#input tr.bad')].map(r => r.textContent)"
                + ".join('\\n')");
        assertTrue(damaged.contains(DAMAGED) && damaged.contains("damaged at byte 5035"),
                "the damaged file is listed with the offset of the damage: " + damaged);
        assertEquals("1", p.string("document.querySelector('#input [data-card=\"damaged\"] .v').textContent"));
        assertNotNull(p.eval("document.querySelector('body').style.display === '' ? 'visible' : null"),
                "the injected style did not hide the page");
        screenshots(p, "crafted");
    }

    private static List<String> strings(Object v) {
        @SuppressWarnings("unchecked")
        List<String> l = (List<String>) v;
        return l;
    }
}
