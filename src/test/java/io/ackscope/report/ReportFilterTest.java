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
    void rejectsServersWithoutPortOrWithBareIpv6() {
        assertThrows(IllegalArgumentException.class, () -> ReportFilter.normaliseEndpoint("127.0.0.1"));
        assertThrows(IllegalArgumentException.class, () -> ReportFilter.normaliseEndpoint("::1:80"));
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
}
