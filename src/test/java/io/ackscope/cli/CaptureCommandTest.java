package io.ackscope.cli;

import io.ackscope.capture.CaptureReader;
import io.ackscope.probe.NetTestSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ackscope capture} as a script runs it: a child process, traffic only after its "listening on" line, ended
 * by SIGINT, SIGTERM, {@code -c} or {@code --duration}. Each capture must be complete and flushed: tshark, ackscope's
 * {@code fields} and {@link CaptureReader} count the frames the command reported, and the known traffic is all there.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@Tag("root")
class CaptureCommandTest {

    /** Conversations per run: connect, "hello\n", "bye\n" back, close. */
    private static final int CONVERSATIONS = 5;
    private static final Pattern CAPTURED = Pattern.compile("^(\\d+) packets? captured$");

    private static ServerSocket server;
    private static Thread acceptor;

    @BeforeAll
    static void startServer() throws IOException {
        NetTestSupport.requireRoot();
        NetTestSupport.requireTool("/usr/bin/tshark", "tshark");
        server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try (Socket c = server.accept()) {
                    c.setSoTimeout(5_000);
                    new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.US_ASCII))
                            .readLine();
                    c.getOutputStream().write("bye\n".getBytes(StandardCharsets.US_ASCII));
                } catch (IOException e) {
                    // closed at the end of the class, or a client gone: next one
                }
            }
        }, "capture-test-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
            acceptor.join(5_000);
        }
    }

    @Test
    void sigintEndsTheCaptureWithEverythingFlushed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("int.pcap");
        Capture c = Capture.start(file, "tcp", "port", String.valueOf(server.getLocalPort()));
        talk();
        List<String> out = c.signalAndWait("INT");
        long n = captured(out);
        assertAllReadersCount(file, n);
        assertKnownTraffic(file);
    }

    /** As tcpdump: a script's {@code ackscope capture ... &} starts with SIGINT ignored, and SIGINT still ends it. */
    @Test
    void sigintEndsTheCaptureEvenWhenTheLauncherLeftSigintIgnored(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("ignored.pcap");
        Capture c = Capture.start(NetTestSupport.sigintIgnored(), file, "tcp port " + server.getLocalPort());
        talk();
        List<String> out = c.signalAndWait("INT");
        assertAllReadersCount(file, captured(out));
        assertKnownTraffic(file);
    }

    @Test
    void sigtermEndsTheCaptureWithEverythingFlushed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("term.pcap");
        Capture c = Capture.start(file, "tcp port " + server.getLocalPort());
        talk();
        List<String> out = c.signalAndWait("TERM");
        assertAllReadersCount(file, captured(out));
        assertKnownTraffic(file);
    }

    @Test
    void countStopsAfterExactlyThatManyPackets(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("count.pcap");
        Capture c = Capture.start(file, "-c", "4", "tcp port " + server.getLocalPort());
        talk();
        List<String> out = c.waitForExit(30);
        assertEquals(4, captured(out), String.join("\n", out));
        assertAllReadersCount(file, 4);
    }

    @Test
    void durationStopsTheCaptureByItself(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("duration.pcap");
        long t0 = System.nanoTime();
        Capture c = Capture.start(file, "--duration", "3s", "tcp port " + server.getLocalPort());
        talk();
        List<String> out = c.waitForExit(60);
        assertTrue(System.nanoTime() - t0 >= TimeUnit.SECONDS.toNanos(3), "ran at least its duration");
        assertAllReadersCount(file, captured(out));
        assertKnownTraffic(file);
    }

    /**
     * {@code -w -} as {@code tcpdump -w - | tshark -r -}: standard output holds the pcap and nothing else (the status
     * lines go to standard error), complete, with as many records as the command reported.
     */
    @Test
    void dashWritesACleanPcapToStandardOutput(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("stdout.pcap");
        Path err = dir.resolve("stderr.txt");
        Process p = new ProcessBuilder(NetTestSupport.java(List.of(), "io.ackscope.cli.Main", "capture", "-i", "lo",
                "-w", "-", "-c", "12", "tcp port " + server.getLocalPort()))
                .redirectOutput(file.toFile()).redirectError(err.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!java.nio.file.Files.readString(err).contains("listening on lo")) {
                assertTrue(p.isAlive() && System.nanoTime() < deadline, "no ready line on standard error");
                Thread.sleep(50);
            }
            talk();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "capture -c 12 ended");
        } finally {
            p.destroyForcibly();
        }
        List<String> status = java.nio.file.Files.readAllLines(err);
        assertEquals(0, p.exitValue(), String.join("\n", status));
        assertEquals(12, captured(status), String.join("\n", status));
        assertAllReadersCount(file, 12);
    }

    /** Opens {@link #CONVERSATIONS} connections one after the other, each saying hello and reading bye. */
    private static void talk() throws IOException {
        for (int i = 0; i < CONVERSATIONS; i++) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), server.getLocalPort()), 5_000);
                s.setSoTimeout(5_000);
                OutputStream o = s.getOutputStream();
                o.write("hello\n".getBytes(StandardCharsets.US_ASCII));
                String reply = new BufferedReader(new InputStreamReader(s.getInputStream(),
                        StandardCharsets.US_ASCII)).readLine();
                assertEquals("bye", reply);
            }
        }
    }

    private static long captured(List<String> out) {
        for (String l : out) {
            Matcher m = CAPTURED.matcher(l);
            if (m.matches()) {
                return Long.parseLong(m.group(1));
            }
        }
        throw new AssertionError("no 'packets captured' line in:\n" + String.join("\n", out));
    }

    /** tshark, {@code ackscope fields} and CaptureReader all see {@code n} frames. */
    private static void assertAllReadersCount(Path file, long n) throws Exception {
        String tshark = NetTestSupport.check(30, List.of("tshark", "-n", "-r", file.toString(), "-T", "fields",
                "-e", "frame.number"));
        assertEquals(n, tshark.lines().count(), "tshark's frames");

        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            FieldsCommand fields = new FieldsCommand(ps, ps);
            com.beust.jcommander.JCommander.newBuilder().addObject(fields).build()
                    .parse("-r", file.toString(), "-e", "frame.number");
            assertEquals(0, fields.run());
        }
        List<String> rows = buf.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals("frame.number", rows.get(0), "fields header");
        assertEquals(n, rows.size() - 1, "ackscope fields' frames");
        assertEquals(tshark.strip(), String.join("\n", rows.subList(1, rows.size())).strip(), "frame numbers");

        long read = 0;
        try (CaptureReader r = CaptureReader.open(file)) {
            while (r.next()) {
                read++;
            }
            assertEquals(null, r.tailProblem(), "a cleanly closed file");
        }
        assertEquals(n, read, "CaptureReader's records");
    }

    /** Every conversation is in the file: its SYN, the client's 6 bytes and the server's 4. */
    private static void assertKnownTraffic(Path file) throws Exception {
        int port = server.getLocalPort();
        String out = NetTestSupport.check(30, List.of("tshark", "-n", "-r", file.toString(), "-T", "fields",
                "-e", "tcp.dstport", "-e", "tcp.flags", "-e", "tcp.len"));
        int syn = 0;
        int hello = 0;
        int bye = 0;
        for (String l : out.lines().toList()) {
            String[] f = l.split("\t");
            boolean toServer = Integer.parseInt(f[0]) == port;
            if (toServer && f[1].equals("0x0002")) {
                syn++;
            } else if (toServer && f[2].equals("6")) {
                hello++;
            } else if (!toServer && f[2].equals("4")) {
                bye++;
            }
        }
        assertEquals(CONVERSATIONS, syn, "SYNs (the first was sent right after 'listening on')");
        assertEquals(CONVERSATIONS, hello, "client requests");
        assertEquals(CONVERSATIONS, bye, "server replies");
    }

    /** {@code ackscope capture -i lo -w FILE ARGS...} in a child process, started and ready. */
    private static final class Capture {
        private final Process p;
        private final BufferedReader out;
        private final List<String> lines = new ArrayList<>();

        private Capture(Process p) {
            this.p = p;
            this.out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        }

        static Capture start(Path file, String... args) throws Exception {
            return start(List.of(), file, args);
        }

        /** Started through {@code prefix} (a command that execs the rest). */
        static Capture start(List<String> prefix, Path file, String... args) throws Exception {
            List<String> a = new ArrayList<>(List.of("capture", "-i", "lo", "-w", file.toString()));
            a.addAll(List.of(args));
            Process p = new ProcessBuilder(NetTestSupport.java(prefix, "io.ackscope.cli.Main",
                    a.toArray(new String[0]))).redirectErrorStream(true).start();
            Capture c = new Capture(p);
            String first = CompletableFuture.supplyAsync(c::readLine).get(60, TimeUnit.SECONDS);
            if (first == null || !first.startsWith("listening on lo, link-type EN10MB (Ethernet), snapshot length ")) {
                p.destroyForcibly();
                throw new AssertionError("expected the ready line, got: " + first);
            }
            return c;
        }

        private String readLine() {
            try {
                String l = out.readLine();
                if (l != null) {
                    lines.add(l);
                }
                return l;
            } catch (IOException e) {
                return null;
            }
        }

        List<String> signalAndWait(String signal) throws Exception {
            NetTestSupport.check(10, List.of("kill", "-" + signal, String.valueOf(p.pid())));
            return waitForExit(30);
        }

        /** Reads the rest of the output and the exit code, which must be 0. */
        List<String> waitForExit(long seconds) throws Exception {
            CompletableFuture<Void> rest = CompletableFuture.runAsync(() -> {
                while (readLine() != null) {
                    // collect
                }
            });
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("capture still running after " + seconds + " s: " + lines);
            }
            rest.get(10, TimeUnit.SECONDS);
            assertEquals(0, p.exitValue(), String.join("\n", lines));
            return lines;
        }
    }

}
