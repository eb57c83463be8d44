package io.ackscope.load;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** What a {@link LoadRun} measured, merged over its threads. */
public final class LoadResult {

    private final LoadConfig config;
    private final Histogram latency;
    private final Histogram corrected;
    private final long requests;
    private final long failedRequests;
    private final long statusErrors;
    private final long bytes;
    private final long[] errors;
    private final long elapsedNanos;
    private final double[] rateSamples;
    private final int connectionsOpened;
    private final List<RequestLog> logs;
    private final long epochOffsetNanos;

    private LoadResult(LoadConfig config, Histogram latency, Histogram corrected, long requests, long failedRequests,
                       long statusErrors, long bytes, long[] errors, long elapsedNanos, double[] rateSamples,
                       int connectionsOpened, List<RequestLog> logs, long epochOffsetNanos) {
        this.config = config;
        this.latency = latency;
        this.corrected = corrected;
        this.requests = requests;
        this.failedRequests = failedRequests;
        this.statusErrors = statusErrors;
        this.bytes = bytes;
        this.errors = errors;
        this.elapsedNanos = elapsedNanos;
        this.rateSamples = rateSamples;
        this.connectionsOpened = connectionsOpened;
        this.logs = logs;
        this.epochOffsetNanos = epochOffsetNanos;
    }

    /** @param startNanos start of the measured part of the run (after the warm-up) */
    static LoadResult merge(LoadConfig config, LoadWorker[] workers, long startNanos, long epochOffsetNanos,
                            int connectionsOpened) {
        Histogram latency = new Histogram(LoadWorker.HIGHEST_LATENCY_US, 3);
        Histogram corrected = config.openLoop() ? new Histogram(LoadWorker.HIGHEST_LATENCY_US, 3) : null;
        long requests = 0;
        long failed = 0;
        long status = 0;
        long bytes = 0;
        long stop = startNanos;
        long[] errors = new long[LoadError.values().length];
        int samples = 0;
        List<RequestLog> logs = new ArrayList<>();
        for (LoadWorker w : workers) {
            latency.add(w.latency);
            if (corrected != null) {
                corrected.add(w.corrected);
            }
            requests += w.completed;
            failed += w.failedRequests;
            status += w.statusErrors;
            bytes += w.bytesRead;
            stop = Math.max(stop, w.stopNanos);
            for (int i = 0; i < errors.length; i++) {
                errors[i] += w.errors[i];
            }
            samples += w.rateSampleCount;
            if (w.log != null) {
                logs.add(w.log);
            }
        }
        double[] rates = new double[samples];
        int k = 0;
        for (LoadWorker w : workers) {
            System.arraycopy(w.rateSamples, 0, rates, k, w.rateSampleCount);
            k += w.rateSampleCount;
        }
        return new LoadResult(config, latency, corrected, requests, failed, status, bytes, errors,
                Math.max(1, stop - startNanos), rates, connectionsOpened, Collections.unmodifiableList(logs),
                epochOffsetNanos);
    }

    public LoadConfig config() {
        return config;
    }

    /** Responses received (any status), as wrk's "N requests". */
    public long requests() {
        return requests;
    }

    /** Requests sent that got no complete response (timeout, read, write or parse error). */
    public long failedRequests() {
        return failedRequests;
    }

    /** Responses with a status outside 2xx and 3xx. */
    public long statusErrors() {
        return statusErrors;
    }

    /** Failures of one kind, whether or not a request was in flight. */
    public long errors(LoadError kind) {
        return errors[kind.ordinal()];
    }

    /** Bytes read from the server. */
    public long bytes() {
        return bytes;
    }

    /** From the end of the warm-up (the start of the run if none) until the last thread stopped. */
    public long elapsedNanos() {
        return elapsedNanos;
    }

    public double requestsPerSecond() {
        return requests * 1e9 / elapsedNanos;
    }

    public double bytesPerSecond() {
        return bytes * 1e9 / elapsedNanos;
    }

    /** TCP connections established during the run, warm-up included. */
    public int connectionsOpened() {
        return connectionsOpened;
    }

    /** Latency from the actual send of each request. */
    public LatencySummary latency() {
        return LatencySummary.of(latency);
    }

    /** Latency from the intended send of each request (open loop); null for a closed loop. */
    public LatencySummary correctedLatency() {
        return corrected == null ? null : LatencySummary.of(corrected);
    }

    /** Per-thread requests per second, one sample per thread every 100 ms. */
    public double[] rateSamples() {
        return rateSamples.clone();
    }

    /** Whether per-request rows were kept. */
    public boolean hasRows() {
        return config.recordRequests();
    }

    List<RequestLog> logs() {
        return logs;
    }

    /** Adding this to a {@link System#nanoTime()} value of this run gives nanoseconds since the Unix epoch. */
    long epochOffsetNanos() {
        return epochOffsetNanos;
    }
}
