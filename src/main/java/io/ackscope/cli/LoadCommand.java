package io.ackscope.cli;

import com.beust.jcommander.IParameterValidator;
import com.beust.jcommander.Parameter;
import com.beust.jcommander.ParameterException;
import com.beust.jcommander.Parameters;
import io.ackscope.load.LoadConfig;
import io.ackscope.load.LoadError;
import io.ackscope.load.LoadReport;
import io.ackscope.load.LoadResult;
import io.ackscope.load.LoadRun;
import io.ackscope.load.RequestParquet;
import io.ackscope.load.Target;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ackscope load URL}: HTTP/1.1 keep-alive load like wrk, or at a fixed rate like wrk2 ({@code -R}), with
 * wrk's summary or one JSON object ({@code --json}), and optionally one Parquet row per request ({@code --out}).
 *
 * <p>Exit codes: 0 when at least one response came back, 1 when none did (every connect or request failed) or the
 * Parquet file could not be written, 2 for a usage error.
 *
 * <p>{@code --quickack} sets TCP_QUICKACK and sets it again after every read: Linux does not keep the socket in
 * quick-ACK mode (the kernel drops back to delayed ACKs on its own), so a client relying on it has to re-arm it, and
 * each re-arm also sends any ACK the kernel was holding. That removes the Nagle × delayed-ACK stall from the client
 * side.
 */
@Parameters(commandDescription = "HTTP/1.1 keep-alive load generator like wrk; fixed rate with -R like wrk2")
public final class LoadCommand extends Command {

    @Parameter(description = "URL (http://host[:port][/path])")
    private List<String> urls = new ArrayList<>();

    @Parameter(names = {"-c", "--connections"}, description = "Connections to keep open",
            validateWith = ConnectionsRange.class)
    private int connections = 10;

    @Parameter(names = {"-t", "--threads"}, description = "Threads, each with its own selector",
            validateWith = ThreadsRange.class)
    private int threads = 2;

    @Parameter(names = {"-d", "--duration"}, description = "Duration of the test (e.g. 2s, 500ms, 1m)",
            converter = DurationConverter.class, defaultValueDescription = "10s")
    private Duration duration = Duration.ofSeconds(10);

    @Parameter(names = "--warmup", description = "Send requests for this long first, without measuring them "
            + "(JIT, connections and server caches warm up)", converter = DurationConverter.class,
            defaultValueDescription = "0")
    private Duration warmup = Duration.ZERO;

    @Parameter(names = {"-T", "--timeout"}, description = "Count a request (or connect) as timed out after this",
            converter = DurationConverter.class, defaultValueDescription = "2s")
    private Duration timeout = Duration.ofSeconds(2);

    @Parameter(names = {"-R", "--rate"}, description = "Requests per second over all connections (open loop, "
            + "latency corrected for coordinated omission); 0 = closed loop", defaultValueDescription = "0")
    private double rate;

    @Parameter(names = {"-L", "--latency"}, description = "Print the latency distribution (wrk's -L/--latency)")
    private boolean latency;

    @Parameter(names = {"-U", "--u_latency"}, description = "Print the uncorrected latency distribution too "
            + "(wrk2's -U): with -R, a raw column beside the corrected one; without -R latencies are not corrected")
    private boolean uncorrectedLatency;

    @Parameter(names = "--quickack", description = "Set TCP_QUICKACK, re-armed after every read")
    private boolean quickAck;

    @Parameter(names = "--no-nodelay", description = "Leave Nagle's algorithm on for the requests")
    private boolean noNoDelay;

    @Parameter(names = "--max-requests", description = "Stop after this many requests (split over the threads)",
            defaultValueDescription = "no limit", validateWith = OptionRange.Positive.class)
    private long maxRequests = Long.MAX_VALUE;

    @Parameter(names = "--out", description = "Write one row per request to this Parquet file")
    private String out;

    @Parameter(names = {"-H", "--header"}, description = "Add this header to every request (\"Name: value\", "
            + "repeatable; a Host header replaces the URL's), as wrk -H")
    private List<String> headers = new ArrayList<>();

    @Parameter(names = "--json", description = "Print the summary as one JSON object instead of wrk's text")
    private boolean json;

    /** {@code -c}: 1 to {@link LoadConfig#MAX_CONNECTIONS}. */
    public static final class ConnectionsRange implements IParameterValidator {
        @Override
        public void validate(String name, String value) {
            OptionRange.check(name, value, 1, LoadConfig.MAX_CONNECTIONS);
        }
    }

    /** {@code -t}: 1 to {@link LoadConfig#MAX_THREADS} (and at most {@code -c}, which {@link LoadConfig} checks). */
    public static final class ThreadsRange implements IParameterValidator {
        @Override
        public void validate(String name, String value) {
            OptionRange.check(name, value, 1, LoadConfig.MAX_THREADS);
        }
    }

    @Override
    public int run() throws Exception {
        if (urls.size() != 1) {
            throw new ParameterException("expected exactly one URL, got " + urls.size());
        }
        LoadConfig config;
        try {
            config = new LoadConfig(Target.parse(urls.get(0), headers), connections, threads, duration.toNanos(),
                    warmup.toNanos(), timeout.toNanos(), rate, quickAck, !noNoDelay, maxRequests, out != null);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(e.getMessage());
        }
        if (out != null) {
            checkOutputFile("--out", out);
        }
        if (!json) {
            System.out.print(LoadReport.header(config));
            System.out.flush();
        }
        LoadRun run = new LoadRun(config);
        LoadResult result;
        try (StopOnSignal signal = new StopOnSignal(run::cancel)) {
            result = run.execute();
            if (json) {
                if (out != null) {
                    RequestParquet.write(result, Path.of(out)); // first, so that "out" in the JSON is true
                }
                System.out.println(LoadReport.json(result, out));
            } else {
                System.out.print(LoadReport.text(result, latency || uncorrectedLatency));
                System.out.flush();
                if (out != null) {
                    long rows = RequestParquet.write(result, Path.of(out));
                    System.out.println("  " + rows + " request rows written to " + out);
                }
            }
            System.out.flush();
        }
        if (result.requests() == 0) {
            System.err.println("ackscope load: no response from " + config.target().url() + " (connect errors: "
                    + result.errors(LoadError.CONNECT) + ", timeouts: " + result.errors(LoadError.TIMEOUT) + ")");
            return 1;
        }
        return 0;
    }
}
