package io.ackscope.cli;

import io.ackscope.probe.Namespaces;
import io.ackscope.probe.NetTestSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ackscope trace} through a topology the test builds: namespaces client - router1 - router2 - server joined by
 * veth pairs, addresses in 10.231.0.0/16 that exist only inside them, forwarding on in the routers, a TCP listener
 * in the server namespace; the trace runs inside the client namespace.
 *
 * <pre>
 *  client c0 10.231.1.2 -- r1a 10.231.1.1 [router1] r1b 10.231.2.1 -- r2a 10.231.2.2 [router2] r2b 10.231.3.1
 *                                                                        -- s0 10.231.3.2 server (listens on 8080)
 * </pre>
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Tag("root")
@Tag("netns")
class TraceNamespaceTest {

    private static final String SERVER = "10.231.3.2";
    private static final Pattern HOP = Pattern.compile("^\\s*(\\d+)\\s+(\\d+\\.\\d+\\.\\d+\\.\\d+)( \\[(\\w+)])?"
            + "((?:\\s+\\d+\\.\\d{3} ms)+)$");

    private static Namespaces ns;
    private static Process server;

    @BeforeAll
    static void buildTopology() throws Exception {
        NetTestSupport.requireRoot();
        ns = new Namespaces("acstrace");
        for (String n : new String[] {"client", "r1", "r2", "srv"}) {
            ns.add(n);
        }
        ns.link("client", "c0", "10.231.1.2/24", "r1", "r1a", "10.231.1.1/24");
        ns.link("r1", "r1b", "10.231.2.1/24", "r2", "r2a", "10.231.2.2/24");
        ns.link("r2", "r2b", "10.231.3.1/24", "srv", "s0", SERVER + "/24");
        ns.in("client", "ip", "route", "add", "default", "via", "10.231.1.1");
        ns.in("r1", "ip", "route", "add", "10.231.3.0/24", "via", "10.231.2.2");
        ns.in("r2", "ip", "route", "add", "10.231.1.0/24", "via", "10.231.2.1");
        ns.in("srv", "ip", "route", "add", "default", "via", "10.231.3.1");
        for (String r : new String[] {"r1", "r2"}) {
            ns.in(r, "sysctl", "-qw", "net.ipv4.ip_forward=1");
            ns.in(r, "sysctl", "-qw", "net.ipv4.icmp_ratelimit=0"); // every probe gets its time exceeded
        }
        server = new ProcessBuilder(NetTestSupport.java(ns.exec("srv"), "io.ackscope.probe.ListenerMain", SERVER,
                "8080", "100")).redirectErrorStream(true).start();
        BufferedReader r = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        String first = CompletableFuture.supplyAsync(() -> {
            try {
                return r.readLine();
            } catch (java.io.IOException e) {
                return null;
            }
        }).get(30, TimeUnit.SECONDS);
        assertEquals("ready", first, "listener in the server namespace");
    }

    @AfterAll
    static void tearDown() throws InterruptedException {
        if (server != null) {
            server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        if (ns != null) {
            ns.close();
        }
    }

    @Test
    void reportsBothRoutersAndThenTheServerInOrder() throws Exception {
        List<Matcher> hops = trace("8080");
        assertEquals(3, hops.size());
        assertHop(hops.get(0), 1, "10.231.1.1", null);
        assertHop(hops.get(1), 2, "10.231.2.2", null);
        assertHop(hops.get(2), 3, SERVER, "SA");
    }

    @Test
    void aClosedPortEndsTheTraceWithRst() throws Exception {
        List<Matcher> hops = trace("8081");
        assertEquals(3, hops.size());
        assertHop(hops.get(2), 3, SERVER, "RA");
    }

    /** The same raw SYN path as trace, through two routers: the SYN/ACK arrives with TTL 64 - 2. */
    @Test
    void synProbeAcrossTheRoutersSeesTheServersTtlLessTwoHops() throws Exception {
        NetTestSupport.Result r = NetTestSupport.run(60, NetTestSupport.java(ns.exec("client"),
                "io.ackscope.cli.Main", "probe", SERVER, "-p", "8080", "-c", "2", "-i", "50ms", "--syn"));
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        List<String> lines = r.stdout().lines().toList();
        assertTrue(lines.get(0).contains("(c0 10.231.1.2 via 10.231.1.1 (next hop "), lines.get(0));
        assertTrue(lines.get(1).matches("len=44 ip=10\\.231\\.3\\.2 ttl=62 DF id=0 sport=8080 flags=SA seq=0 "
                + "win=\\d+ rtt=\\d+\\.\\d{3} ms"), lines.get(1));
        assertTrue(lines.contains("2 packets transmitted, 2 packets received, 0% packet loss"), r.stdout());
    }

    private static void assertHop(Matcher m, int ttl, String address, String flags) {
        assertEquals(String.valueOf(ttl), m.group(1), m.group());
        assertEquals(address, m.group(2), m.group());
        assertEquals(flags, m.group(4), m.group());
        String[] rtts = m.group(5).trim().split("\\s+ms\\s*");
        assertEquals(3, rtts.length, "one RTT per probe: " + m.group());
        for (String rtt : rtts) {
            double ms = Double.parseDouble(rtt.trim());
            assertTrue(ms >= 0 && ms < 1000, m.group());
        }
    }

    private static List<Matcher> trace(String port) throws Exception {
        NetTestSupport.Result r = NetTestSupport.run(60, NetTestSupport.java(ns.exec("client"),
                "io.ackscope.cli.Main", "trace", SERVER, "-p", port, "-m", "6", "-q", "3", "-w", "2s"));
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        List<String> lines = r.stdout().lines().toList();
        assertTrue(lines.get(0).startsWith("trace to " + SERVER + " port " + port + ", 6 hops max, 3 probes per hop"),
                lines.get(0));
        assertTrue(lines.get(0).contains("c0 10.231.1.2 via 10.231.1.1"), lines.get(0));
        List<Matcher> hops = new ArrayList<>();
        for (String l : lines.subList(1, lines.size())) {
            Matcher m = HOP.matcher(l);
            assertTrue(m.matches(), "hop line: " + l + "\n" + r.stdout());
            hops.add(m);
        }
        return hops;
    }
}
