package io.ackscope.tcp;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The filter options of analyze (and the times and endpoints report shares): what people type, and bad values. */
class FrameFilterTest {

    private static long nanos(String iso) {
        Instant i = Instant.parse(iso);
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }

    @Test
    void timesAsPeopleTypeThem() {
        long t = nanos("2026-12-03T14:00:00Z");
        assertEquals(t, FrameFilter.parseTime("--since", "2026-12-03T14:00:00Z"));
        assertEquals(t, FrameFilter.parseTime("--since", "2026-12-03 14:00:00"), "a space, UTC");
        assertEquals(t, FrameFilter.parseTime("--since", "2026-12-03T15:00:00+01:00"));
        assertEquals(t, FrameFilter.parseTime("--since", " 2026-12-03T14:00 "));
        assertEquals(nanos("2026-12-03T00:00:00Z"), FrameFilter.parseTime("--since", "2026-12-03"));
        assertEquals(t + 123_456_789, FrameFilter.parseTime("--since", (t / 1_000_000_000L) + ".123456789"));
        assertEquals(nanos("2026-12-02T09:51:14.337497Z"), FrameFilter.parseTime("--since", "1796205074.337497"));
        assertEquals("--until: not a time: yesterday (use ISO-8601 such as 2026-12-02T10:04:32Z or 2026-12-02 "
                        + "10:04:32 (UTC), or seconds since the epoch)",
                assertThrows(IllegalArgumentException.class, () -> FrameFilter.parseTime("--until", "yesterday"))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> FrameFilter.parseTime("--since", "1.1234567891"));
    }

    @Test
    void endpointsWithAndWithoutPortsIpv4AndIpv6() {
        assertEquals(new FrameFilter.Endpoint("127.0.0.1", 8080), FrameFilter.parseEndpoint("--server",
                "127.0.0.1:8080", false));
        assertEquals(new FrameFilter.Endpoint("::1", 80), FrameFilter.parseEndpoint("--server", "[::1]:80", false));
        assertEquals("[2001:db8::1]:443", FrameFilter.parseEndpoint("--server", "[2001:DB8:0::1]:443", false).text());
        assertEquals("2001:db8::1", FrameFilter.parseEndpoint("--server", "2001:db8:0:0::1", false).text());
        assertEquals("::1", FrameFilter.parseEndpoint("--server", "[::1]", false).text());
        assertEquals("10.0.0.1", FrameFilter.parseEndpoint("--server", "10.0.0.1", false).text());
        assertEquals("((src host ::1 and src port 80) or (dst host ::1 and dst port 80))",
                FrameFilter.parseEndpoint("--server", "[::1]:80", false).captureFilter());
        assertEquals("--server: port out of range in 10.0.0.1:70000", assertThrows(IllegalArgumentException.class,
                () -> FrameFilter.parseEndpoint("--server", "10.0.0.1:70000", false)).getMessage());
        assertEquals("--server: www.example.org is not an IP address (names are not looked up)",
                assertThrows(IllegalArgumentException.class, () -> FrameFilter.parse(null, null,
                        List.of("www.example.org:80"), null)).getMessage());
    }

    @Test
    void aBadCaptureFilterNamesTheOptionAndThePosition() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FrameFilter.parse(null, null, List.of(), "tcp and port eighty"));
        assertEquals("--filter: capture filter 'tcp and port eighty': at character 14: 'eighty' is not a number from "
                + "0 to 65535 (names are not looked up)", e.getMessage());
        assertEquals("--since must be before --until", assertThrows(IllegalArgumentException.class,
                () -> FrameFilter.parse("2026-12-03T14:00:00Z", "2026-12-03 13:00:00", List.of(), null)).getMessage());
    }

    @Test
    void theDataSourceOptionsReadBackAsTheSameFilter() {
        FrameFilter f = FrameFilter.parse("2026-12-03 14:00:00.000000001", "1796311260", List.of("[::1]:80",
                "10.0.0.1"), "tcp port 80");
        Map<String, String> o = f.options();
        assertEquals(Map.of("since", "1796306400.000000001", "until", "1796311260.000000000",
                "server", "[::1]:80,10.0.0.1", "filter", "tcp port 80"), o);
        FrameFilter back = FrameFilter.parse(o.get("since"), o.get("until"), List.of(o.get("server").split(",")),
                o.get("filter"));
        assertEquals(f.describe(), back.describe());
        assertEquals("2026-12-03T14:00:00.000000001Z", f.describe().get("since"));
        assertTrue(FrameFilter.NONE.isNone() && !f.isNone());
    }
}
