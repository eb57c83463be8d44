package io.ackscope.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * The seed experiment end to end on loopback. For each {@link Setup}: start the server (ackscope {@code serve} or
 * nginx) on a 127.0.0.1 port, start {@code ackscope capture -i lo} on that port and wait for its "listening" line,
 * run {@code ackscope load --json} against it for a few seconds, stop the capture and the server, and keep the
 * capture gzip-compressed. Then analyse the captures with {@code ackscope analyze}, which also writes the HTML
 * report, and put the load's figures and the analysis's findings side by side ({@link Result}).
 *
 * <p>Every process is a real child process ({@link ChildProcess}); each is bounded on its own as well (the ackscope
 * commands by {@code --duration}, nginx by {@code timeout}), so nothing outlives a lab that is killed outright.
 * {@link #close()} stops whatever still runs and deletes the work directory; {@link #abort()} does the first from a
 * signal handler. Not thread-safe otherwise: one lab runs on one thread.
 */
public final class Lab implements AutoCloseable {

    /** Whether to include the nginx configurations. */
    public enum NginxMode {
        /** When nginx is installed. */
        AUTO,
        /** Always; fail when nginx is missing. */
        REQUIRE,
        /** Never. */
        SKIP
    }

    /**
     * How to run the lab.
     *
     * @param ackscope      the command that runs ackscope ({@code java -cp ... io.ackscope.cli.Main})
     * @param out           directory for the compressed captures (and its README.md)
     * @param analysis      {@code ackscope analyze}'s output directory: the tables and {@code report.html}
     * @param durationNanos how long each load runs
     * @param connections   load connections (one thread)
     * @param bodySize      response body bytes: small, so Nagle holds it behind the header
     * @param snaplen       bytes kept of each packet
     * @param maxPackets    packets kept per capture at most
     * @param nginx         whether to run the nginx configurations
     * @param portBase      first port (the setups take consecutive ports), or 0 for free ports
     * @param only          names of the setups to run (see {@link Setup#standard}); empty for all
     * @param updateReadme  rewrite the lab's section of {@code out/README.md}
     * @param commandLine   how the lab was started, for the README
     */
    public record Options(List<String> ackscope, Path out, Path analysis, long durationNanos, int connections, int bodySize,
                          int snaplen, int maxPackets, NginxMode nginx, int portBase, List<String> only,
                          boolean updateReadme, String commandLine) {
        public Options {
            ackscope = List.copyOf(ackscope);
            only = List.copyOf(only);
            List<String> known = Setup.standard(true).stream().map(Setup::name).toList();
            for (String name : only) {
                if (!known.contains(name)) {
                    throw new IllegalArgumentException("no configuration " + name + "; there are " + known);
                }
            }
            if (durationNanos < 100_000_000L || durationNanos > 600_000_000_000L) {
                throw new IllegalArgumentException("duration must be 100ms to 10m");
            }
            if (connections < 1 || connections > 64) {
                throw new IllegalArgumentException("connections must be 1 to 64");
            }
            if (bodySize < 1 || bodySize > 16_384) {
                throw new IllegalArgumentException("body size must be 1 to 16384 (small bodies show the stall)");
            }
            if (snaplen < 64 || snaplen > 65_535 || maxPackets < 1_000 || maxPackets > 1_000_000) {
                throw new IllegalArgumentException("need snaplen 64 to 65535 and max packets 1000 to 1000000");
            }
            if (portBase != 0 && (portBase < 1024 || portBase > 65_000)) {
                throw new IllegalArgumentException("port base must be 0 (free ports) or 1024 to 65000");
            }
        }

        /** The command that runs ackscope in this JVM's installation: same java, same class path. */
        public static List<String> sameJvm() {
            return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "io.ackscope.cli.Main");
        }
    }

    /**
     * One configuration's run.
     *
     * @param port     the server's port on 127.0.0.1
     * @param server   the server's command line
     * @param capture  the capture's command line
     * @param load     the load's command line
     * @param nginxConf the nginx configuration file, or null for the ackscope server
     */
    public record Run(Setup setup, int port, List<String> server, String nginxConf, List<String> capture,
                      List<String> load,
                      LoadFigures loadFigures, CaptureFigures captureFigures, Path captureFile,
                      StallFigures analysis) {

        /** The server endpoint as the analysis names it. */
        public String endpoint() {
            return "127.0.0.1:" + port;
        }

        /**
         * What load and analysis together say about this run: the delayed-ACK stall is there when the analysis finds
         * stalls ended by a delayed-ACK timer on most requests after the first on a connection and the load's median
         * is in that range, and gone when such stalls are rare (a client starved of CPU for 40 ms on a busy machine
         * can still meet its timer now and then) and the median is far below.
         */
        public Verdict verdict() {
            double share = analysis.timerStallShare();
            if (share >= STALL_SHARE && loadFigures.p50Micros() >= STALL_MICROS) {
                return Verdict.STALL;
            }
            if (share < RARE_SHARE && loadFigures.p50Micros() < FAST_MICROS) {
                return Verdict.NO_STALL;
            }
            return Verdict.DISAGREE;
        }
    }

    /** A run's verdict. */
    public enum Verdict {
        /** Timer stalls on most later requests, and the load's median in the delayed-ACK range. */
        STALL,
        /** Timer stalls on under 1% of later requests, and the load's median far below the delayed-ACK range. */
        NO_STALL,
        /** Anything else: the load and the analysis do not tell the same story. */
        DISAGREE
    }

    /**
     * Everything the lab did.
     *
     * @param analysis how the captures were analysed
     * @param report   the HTML report, or null when none was written
     */
    public record Result(List<Run> runs, String analysis, Path report, LabEnvironment environment) {
    }

    /** Load median at or above which a run counts as stalled: Linux's shortest delayed ACK is 40 ms. */
    static final long STALL_MICROS = 40_000;
    /** Load median below which a run counts as free of stalls. */
    static final long FAST_MICROS = 5_000;
    /** Timer stalls per request after the first on a connection, at or above which the stall is systematic. */
    static final double STALL_SHARE = 0.5;
    /** Timer stalls per request after the first on a connection below which the stall is gone. */
    static final double RARE_SHARE = 0.01;
    /** Extra time each child may run beyond the load's duration before its own bound stops it. */
    private static final long CHILD_BOUND_SECONDS = 120;
    private static final long START_TIMEOUT_MILLIS = 30_000;
    /** Bound on the analysis of the lab's few MB of captures (about 30 s on two loaded cores). */
    private static final long ANALYZE_TIMEOUT_MILLIS = 600_000;
    /** Time for the last ACKs and FINs to reach the capture after the load exits. */
    static final long DRAIN_MILLIS = 300;
    /** How the README and the table name the lab's temporary directory. */
    static final String WORK = "$WORK";

    private final Options options;
    private final PrintStream progress;
    private final Path work;
    private final List<ChildProcess> live = new ArrayList<>();
    private volatile boolean aborted;

    /**
     * @param progress where to say what the lab is doing, one line per step
     */
    public Lab(Options options, PrintStream progress) throws IOException {
        this.options = options;
        this.progress = progress;
        Files.createDirectories(options.out());
        this.work = Files.createTempDirectory("ackscope-lab.");
    }

    /** Runs every setup, analyses the captures, updates the README; returns the figures. */
    public Result run() throws IOException, InterruptedException {
        boolean nginx = switch (options.nginx()) {
            case SKIP -> false;
            case AUTO -> Nginx.installed();
            case REQUIRE -> {
                if (!Nginx.installed()) {
                    throw new IOException(Nginx.BINARY + " is missing: install Debian's nginx-light, or run the lab "
                            + "without nginx");
                }
                yield true;
            }
        };
        if (!nginx && options.nginx() == NginxMode.AUTO) {
            progress.println("lab: " + Nginx.BINARY + " not installed; running the ackscope server only");
        }
        progress.println("lab: work directory " + work + " (deleted on exit)");
        LabEnvironment env = LabEnvironment.probe(work, nginx);
        Path root = Files.createDirectories(work.resolve("www"));
        byte[] body = new byte[options.bodySize()];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) (i % 64 == 63 ? '\n' : 'a' + i % 26);
        }
        Files.write(root.resolve("index.html"), body);
        List<Setup> setups = new ArrayList<>();
        for (Setup s : Setup.standard(nginx)) {
            if (options.only().isEmpty() || options.only().contains(s.name())) {
                setups.add(s);
            }
        }
        if (setups.isEmpty()) {
            throw new IOException("nothing to run: " + options.only() + " needs nginx, which is not installed");
        }
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < setups.size(); i++) {
            runs.add(runOne(setups.get(i), options.portBase() == 0 ? 0 : options.portBase() + i, root));
        }
        Result result = analyze(runs, env);
        if (options.updateReadme()) {
            LabReadme.update(options.out().resolve("README.md"), result, options);
        }
        return result;
    }

    /**
     * Runs {@code ackscope analyze} over the kept captures (it also writes the HTML report), then reads each
     * configuration's figures from its tables.
     */
    private Result analyze(List<Run> runs, LabEnvironment env) throws IOException, InterruptedException {
        checkAborted();
        List<String> cmd = ackscope("analyze", "--out", options.analysis().toString(), "--overwrite");
        for (Run r : runs) {
            cmd.add(r.captureFile().toString());
        }
        progress.println("lab: " + Lab.text(displayed(cmd)));
        ChildProcess analyze = start("ackscope analyze", cmd, work.resolve("analyze.log"));
        int status = analyze.awaitExit(ANALYZE_TIMEOUT_MILLIS);
        forget(analyze);
        if (status != 0) {
            throw analyze.failure("exited with status " + status);
        }
        AnalyzedTables tables = new AnalyzedTables(options.analysis());
        List<Run> analysed = new ArrayList<>();
        for (Run r : runs) {
            analysed.add(withAnalysis(r, tables.figures(r.endpoint())));
        }
        Path report = options.analysis().resolve("report.html");
        if (!Files.exists(report)) {
            progress.println("lab: analyze wrote no report.html: " + analyze.output().strip());
            report = null;
        }
        return new Result(analysed, "`ackscope analyze` (Spark, local) over the " + runs.size() + " captures at "
                + "once, read from its tables", report, env);
    }

    private static Run withAnalysis(Run r, StallFigures a) {
        return new Run(r.setup(), r.port(), r.server(), r.nginxConf(), r.capture(), r.load(), r.loadFigures(),
                r.captureFigures(), r.captureFile(), a);
    }

    /** A server that listens. */
    private record Server(ChildProcess process, int port, String nginxConf) {
    }

    private Server startServer(Setup s, int port, Path root, Path dir, long boundSeconds)
            throws IOException, InterruptedException {
        if (s.server() == Setup.Server.ACKSCOPE) {
            List<String> cmd = ackscope("serve", "-p", Integer.toString(port), "--json",
                    s.serverNoDelay() ? "--nodelay" : "--no-nodelay", "--split-writes",
                    "--body-size", Integer.toString(options.bodySize()), "--duration", boundSeconds + "s");
            ChildProcess server = start("ackscope serve (" + s.name() + ")", cmd, dir.resolve("server.log"));
            String line = server.awaitLine("\"listening\"", START_TIMEOUT_MILLIS);
            int listening;
            try {
                listening = io.ackscope.json.Json.MAPPER.readTree(line).path("port").asInt(0);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                listening = 0;
            }
            if (listening <= 0) {
                throw server.failure("printed no port");
            }
            return new Server(server, listening, null);
        }
        int p = port == 0 ? freePort() : port;
        ChildProcess server = start("nginx (" + s.name() + ")", Nginx.prepare(s, dir, root, p, boundSeconds),
                dir.resolve("server.log"));
        awaitListening(server, p);
        return new Server(server, p, Files.readString(dir.resolve("nginx.conf")).replace(work.toString(), WORK));
    }

    private Run runOne(Setup s, int requestedPort, Path root) throws IOException, InterruptedException {
        checkAborted();
        long bound = TimeUnit.NANOSECONDS.toSeconds(options.durationNanos()) + CHILD_BOUND_SECONDS;
        Path dir = Files.createDirectories(work.resolve(s.name()));
        Server started = startServer(s, requestedPort, root, dir, bound);
        ChildProcess server = started.process();
        int port = started.port();
        String url = "http://127.0.0.1:" + port + (s.server() == Setup.Server.NGINX ? "/index.html" : "/");
        progress.printf(Locale.ROOT, "lab: %-28s %s on 127.0.0.1:%d%n", s.name(), s.label(), port);

        Path raw = dir.resolve(s.name() + ".pcap");
        List<String> captureCmd = ackscope("capture", "-i", "lo", "-w", raw.toString(),
                "-s", Integer.toString(options.snaplen()), "-c", Integer.toString(options.maxPackets()),
                "--duration", bound + "s", "tcp port " + port);
        ChildProcess capture = start("ackscope capture (" + s.name() + ")", captureCmd, dir.resolve("capture.log"));
        capture.awaitLine("listening on", START_TIMEOUT_MILLIS);

        List<String> loadCmd = new ArrayList<>(ackscope("load", url, "-c", Integer.toString(options.connections()),
                "-t", "1", "-d", TimeUnit.NANOSECONDS.toMillis(options.durationNanos()) + "ms", "--json"));
        if (s.quickAck()) {
            loadCmd.add("--quickack");
        }
        ChildProcess load = start("ackscope load (" + s.name() + ")", loadCmd, dir.resolve("load.log"));
        progress.printf(Locale.ROOT, "lab: %-28s capturing lo (pid %d), load running for %.1f s (pid %d)%n",
                s.name(), capture.pid(), options.durationNanos() / 1e9, load.pid());
        int status = load.awaitExit(TimeUnit.NANOSECONDS.toMillis(options.durationNanos()) + START_TIMEOUT_MILLIS);
        forget(load);
        if (status != 0) {
            throw load.failure("exited with status " + status);
        }
        LoadFigures lf = LoadFigures.parse(load.output());

        Thread.sleep(DRAIN_MILLIS);
        int captureStatus = stop(capture);
        if (captureStatus != 0) {
            throw capture.failure("exited with status " + captureStatus);
        }
        stop(server);
        Path gz = options.out().resolve(s.captureFile());
        gzip(raw, gz);
        Files.delete(raw);
        CaptureFigures cf = CaptureFigures.parse(capture.output(), Files.size(gz));
        progress.printf(Locale.ROOT, "lab: %-28s load p50 %.2f ms, p99 %.2f ms, %.0f req/s; %d packets -> %s "
                        + "(%d bytes)%n", s.name(), lf.p50Millis(), lf.p99Millis(), lf.requestsPerSec(),
                cf.captured(), gz, cf.fileBytes());
        return new Run(s, port, displayed(server.command()), started.nginxConf(), displayed(captureCmd),
                displayed(loadCmd), lf, cf, gz, null);
    }

    /**
     * The command as a reader would type it: {@code ackscope ...} for the ackscope commands, {@code $WORK} for the
     * lab's temporary directory.
     */
    private List<String> displayed(List<String> cmd) {
        List<String> prefix = options.ackscope();
        List<String> l = new ArrayList<>();
        int from = 0;
        if (cmd.size() >= prefix.size() && cmd.subList(0, prefix.size()).equals(prefix)) {
            l.add("ackscope");
            from = prefix.size();
        }
        for (String a : cmd.subList(from, cmd.size())) {
            l.add(a.replace(work.toString(), WORK));
        }
        return l;
    }

    private List<String> ackscope(String... args) {
        List<String> l = new ArrayList<>(options.ackscope());
        l.addAll(List.of(args));
        return l;
    }

    private ChildProcess start(String name, List<String> cmd, Path log) throws IOException {
        synchronized (live) {
            checkAborted();
            ChildProcess p = ChildProcess.start(name, cmd, log);
            live.add(p);
            return p;
        }
    }

    private void forget(ChildProcess p) {
        synchronized (live) {
            live.remove(p);
        }
    }

    private int stop(ChildProcess p) throws InterruptedException {
        int status = p.stop();
        forget(p);
        return status;
    }

    private void checkAborted() throws IOException {
        if (aborted) {
            throw new IOException("lab stopped by a signal");
        }
    }

    private static void awaitListening(ChildProcess server, int port) throws IOException, InterruptedException {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MILLIS);
        while (System.nanoTime() < until) {
            if (!server.isAlive()) {
                throw server.failure("exited before listening on 127.0.0.1:" + port);
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw server.failure("did not listen on 127.0.0.1:" + port + " within " + START_TIMEOUT_MILLIS + " ms");
    }

    /** A port on 127.0.0.1 that was free a moment ago. */
    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** gzip with no file name and a zero time stamp in the header, so the same capture gives the same bytes. */
    private static void gzip(Path from, Path to) throws IOException {
        try (InputStream in = Files.newInputStream(from);
             OutputStream out = new GZIPOutputStream(Files.newOutputStream(to), 1 << 16) {
                 {
                     def.setLevel(9);
                 }
             }) {
            in.transferTo(out);
        }
    }

    /**
     * Stops every child still running (SIGTERM, then SIGKILL), from any thread: a signal handler calls this while
     * {@link #run()} is waiting, which then fails. Returns when they have stopped (a second caller waits for the
     * first).
     */
    public synchronized void abort() {
        aborted = true;
        List<ChildProcess> running;
        synchronized (live) {
            running = new ArrayList<>(live);
            live.clear();
        }
        for (ChildProcess p : running) {
            try {
                p.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Stops what still runs and deletes the work directory (raw captures, configurations, logs). */
    @Override
    public void close() throws IOException {
        abort();
        try (Stream<Path> s = Files.walk(work)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The work directory (kept until {@link #close()}). */
    Path work() {
        return work;
    }

    static String text(List<String> cmd) {
        StringBuilder sb = new StringBuilder();
        for (String a : cmd) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            boolean plain = !a.isEmpty() && a.chars().allMatch(c -> Character.isLetterOrDigit(c)
                    || "-_./:=,@%+".indexOf(c) >= 0);
            sb.append(plain ? a : "'" + a.replace("'", "'\\''") + "'");
        }
        return sb.toString();
    }
}
