package io.ackscope.probe;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoutesTest {

    @Test
    void parsesAGatewayRouteFromIpRouteGet() throws IOException {
        Routes.Hop h = Routes.parseRouteGet("10.231.3.2 via 10.231.1.1 dev c0 src 10.231.1.2 uid 0 \\    cache ");
        assertEquals(new Routes.Hop("c0", "10.231.1.2", "10.231.1.1"), h);
    }

    @Test
    void parsesALocalRouteFromIpRouteGet() throws IOException {
        Routes.Hop h = Routes.parseRouteGet("local 127.0.0.1 dev lo src 127.0.0.1 uid 0 \\    cache <local> ");
        assertEquals(new Routes.Hop("lo", "127.0.0.1", null), h);
    }

    @Test
    void parsesAnOnLinkRouteWithTableAndMark() throws IOException {
        Routes.Hop h = Routes.parseRouteGet("192.0.2.1 dev eth0 table 100 src 192.0.2.2 mark 0x1 uid 0 \\ cache");
        assertEquals(new Routes.Hop("eth0", "192.0.2.2", null), h);
    }

    @Test
    void unreachableRouteIsAnError() {
        assertThrows(IOException.class, () -> Routes.parseRouteGet("unreachable 10.0.0.1 table main uid 0"));
    }

    @Test
    void procNetRoutePrefersTheLongestPrefix() throws Exception {
        List<String> lines = List.of(
                "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT",
                "eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0",     // default via 192.0.2.1
                "eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0",     // 192.0.2.0/24 on-link
                "veth1\t0001E70A\t0201E70A\t0003\t0\t0\t0\t00FFFFFF\t0\t0\t0");   // 10.231.1.0/24 via 10.231.1.2
        assertEquals(new Routes.Hop("eth0", null, "192.0.2.1"), Routes.parseProcRoute(lines, v4("8.8.8.8")));
        assertEquals(new Routes.Hop("eth0", null, null), Routes.parseProcRoute(lines, v4("192.0.2.77")));
        assertEquals(new Routes.Hop("veth1", null, "10.231.1.2"), Routes.parseProcRoute(lines, v4("10.231.1.9")));
        assertNull(Routes.parseProcRoute(lines.subList(0, 1), v4("8.8.8.8")));
    }

    @Test
    void arpTableGivesOnlyCompleteEntriesOnTheRightDevice() {
        List<String> lines = List.of(
                "IP address       HW type     Flags       HW address            Mask     Device",
                "10.231.1.1       0x1         0x2         7e:1f:fe:54:e4:31     *        c0",
                "10.231.1.5       0x1         0x0         00:00:00:00:00:00     *        c0",
                "192.0.2.1        0x1         0x2         02:fc:00:00:00:05     *        eth0");
        assertArrayEquals(new byte[] {0x7e, 0x1f, (byte) 0xfe, 0x54, (byte) 0xe4, 0x31},
                Routes.parseArp(lines, "10.231.1.1", "c0"));
        assertNull(Routes.parseArp(lines, "10.231.1.5", "c0"));
        assertNull(Routes.parseArp(lines, "192.0.2.1", "c0"));
    }

    @Test
    void macParsingRejectsNonMacs() {
        assertNull(Routes.parseMac("00:11:22:33:44"));
        assertNull(Routes.parseMac("00:11:22:33:44:zz"));
        assertNull(Routes.parseMac("00:11:22:33:44:555"));
        assertEquals("00:11:22:aa:bb:cc", Routes.formatMac(Routes.parseMac("00:11:22:AA:bb:cc")));
    }

    @Test
    void loopbackRouteUsesLoWithZeroMacs() throws IOException {
        Route r = Routes.lookup(v4("127.0.0.1"), 100);
        assertEquals("lo", r.device());
        assertTrue(r.loopback());
        assertEquals(v4("127.0.0.1"), r.source());
        assertNull(r.gateway());
        assertArrayEquals(new byte[6], r.sourceMac());
        assertArrayEquals(new byte[6], r.nextHopMac());
    }

    @Test
    void addressIntConversionRoundTrips() throws IOException {
        Inet4Address a = v4("203.0.113.250");
        assertEquals(0xcb0071fa, Routes.toInt(a));
        assertEquals(a, Routes.fromInt(Routes.toInt(a)));
        assertEquals("203.0.113.250", Routes.dotted(0xcb0071fa));
    }

    static Inet4Address v4(String literal) throws IOException {
        return (Inet4Address) InetAddress.getByName(literal);
    }
}
