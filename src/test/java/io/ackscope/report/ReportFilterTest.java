package io.ackscope.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportFilterTest {

    @Test
    void parsesIsoTimesWithAndWithoutOffsetAndEpochSeconds() {
        long t = 1_796_205_072_925_389L;   // 2026-12-02T09:51:12.925389Z
        assertEquals(t, ReportFilter.parseTime("2026-12-02T09:51:12.925389Z"));
        assertEquals(t, ReportFilter.parseTime("2026-12-02T10:51:12.925389+01:00"));
        assertEquals(t, ReportFilter.parseTime("2026-12-02T09:51:12.925389"));
        assertEquals(t, ReportFilter.parseTime("1796205072.925389"));
        assertEquals(1_796_205_072_000_000L, ReportFilter.parseTime("1796205072"));
        assertEquals(t, ReportFilter.parseTime("2026-12-02 09:51:12.925389"), "a space for the T, as people type");
        assertEquals(1_796_169_600_000_000L, ReportFilter.parseTime("2026-12-02"), "a date alone: its midnight");
    }

    @Test
    void rejectsWhatIsNotATime() {
        assertThrows(IllegalArgumentException.class, () -> ReportFilter.parseTime("yesterday"));
        assertThrows(IllegalArgumentException.class, () -> ReportFilter.parse(List.of(), "2026-12-02T10:00:00Z",
                "2026-12-02T09:00:00Z"));
    }

    @Test
    void serversAreSpelledAsTheTablesSpellThem() {
        assertEquals("127.0.0.1:80", ReportFilter.normaliseEndpoint("127.0.0.1:80"));
        assertEquals("[2001:db8::1]:443", ReportFilter.normaliseEndpoint("[2001:DB8:0:0::1]:443"));
        assertEquals("[::1]:8080", ReportFilter.normaliseEndpoint(" [0:0:0:0:0:0:0:1]:8080 "));
        assertEquals("example.org:80", ReportFilter.normaliseEndpoint("example.org:80"));
    }

    @Test
    void aHostAloneSelectsAllItsPortsAndABareIpv6IsAHost() {
        assertEquals("127.0.0.1", ReportFilter.normaliseEndpoint("127.0.0.1"));
        assertFalse(ReportFilter.parse(List.of("::1:80"), null, null).selectsServer("[::1]:80"),
                "an IPv6 address, not ::1 port 80");
        ReportFilter f = ReportFilter.parse(List.of("2001:DB8::1"), null, null);
        assertTrue(f.selectsServer("[2001:db8::1]:443"));
        assertFalse(f.selectsServer("[2001:db8::2]:443"));
        assertTrue(ReportFilter.parse(List.of("10.0.0.1"), null, null).selectsServer("10.0.0.1:8080"));
        assertThrows(IllegalArgumentException.class, () -> ReportFilter.normaliseEndpoint("[::1]80"));
        assertThrows(IllegalArgumentException.class, () -> ReportFilter.normaliseEndpoint("h:99999"));
        assertThrows(IllegalArgumentException.class, () -> ReportFilter.normaliseEndpoint("[1::2::3]:80"));
    }

    @Test
    void windowIsSinceInclusiveUntilExclusive() {
        ReportFilter f = ReportFilter.parse(List.of("10.0.0.1:80"), "100", "200");
        assertTrue(f.inWindow(100_000_000L));
        assertFalse(f.inWindow(200_000_000L));
        assertTrue(f.overlaps(50_000_000L, 100_000_000L));
        assertFalse(f.overlaps(200_000_000L, 300_000_000L));
        assertTrue(f.selectsServer("10.0.0.1:80"));
        assertFalse(f.selectsServer("10.0.0.1:81"));
        assertTrue(ReportFilter.ALL.selectsServer("anything:1"));
    }

    @Test
    void aFilteredReportIsNamedAfterItsFilterWithOnlySafeCharacters() {
        assertEquals("report.html", ReportFilter.ALL.fileName());
        assertEquals("report-127.0.0.1_8080.html", ReportFilter.parse(List.of("127.0.0.1:8080"), null, null)
                .fileName());
        assertEquals("report-2001_db8__1_443-10.0.0.1_80-since-20261202T100000Z-until-20261202T100432.5Z.html",
                ReportFilter.parse(List.of("[2001:DB8::1]:443", "10.0.0.1:80"), "2026-12-02T10:00:00Z",
                        "2026-12-02T10:04:32.5Z").fileName());
        assertEquals("report-web_.._x_80.html", ReportFilter.parse(List.of("web/../x:80"), null, null).fileName(),
                "a slash in a host name never leaves the directory");
    }

    @Test
    void aLongFilterNameIsCutAndKeptApartByAHash() {
        List<String> many = new java.util.ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            many.add("10.0.0." + i + ":80");
        }
        String name = ReportFilter.parse(many, null, null).fileName();
        List<String> other = new java.util.ArrayList<>(many);
        other.set(19, "10.0.0.99:80");
        String otherName = ReportFilter.parse(other, null, null).fileName();
        assertEquals("report-".length() + 120 + ".html".length(), name.length(), name);
        assertTrue(name.startsWith("report-10.0.0.1_80-10.0.0.2_80-"), name);
        assertTrue(name.matches("report-[A-Za-z0-9._-]+-[0-9a-f]{8}\\.html"), name);
        assertFalse(name.equals(otherName), "same first 111 characters, different filters: " + name);
    }
}
