package io.ackscope.load;

import java.io.IOException;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one load test: starts one {@link LoadWorker} thread per configured thread, each with its share of the
 * connections and of {@code maxRequests}, waits for them, and merges what they measured. Can be cancelled from
 * another thread (a signal handler), in which case the result covers the time until the cancel.
 */
public final class LoadRun {

    private final LoadConfig config;
    private volatile boolean cancelled;
    private volatile LoadWorker[] workers;

    public LoadRun(LoadConfig config) {
        this.config = config;
    }

    /**
     * Runs to the end of the duration, the request bound, or {@link #cancel()}; throws if a selector failed. The
     * clock starts once every worker is allocated, its selector open (the first selector looks its provider up
     * through the class path, which takes a noticeable time with a large one) and the socket classes loaded, as wrk
     * starts it once its threads exist; connecting is on the clock, as in wrk.
     */
    public LoadResult execute() throws IOException, InterruptedException {
        int threads = config.threads();
        int conns = config.connections();
        AtomicInteger connectionIds = new AtomicInteger();
        Warmup.loadSocketAndParserClasses(config.quickAck());
        LoadWorker[] ws = new LoadWorker[threads];
        int firstSlot = 0;
        try {
            for (int i = 0; i < threads; i++) {
                int slots = (int) share(conns, threads, i);
                long quota = config.maxRequests() == Long.MAX_VALUE ? Long.MAX_VALUE
                        : share(config.maxRequests(), threads, i);
                ws[i] = new LoadWorker(i, config, slots, firstSlot, quota, connectionIds, this);
                firstSlot += slots;
            }
        } catch (IOException e) {
            for (LoadWorker w : ws) {
                if (w != null) {
                    w.closeSelector();
                }
            }
            throw e;
        }
        Instant wall = Instant.now();
        long start = System.nanoTime();
        long epochOffset = wall.getEpochSecond() * 1_000_000_000L + wall.getNano() - start;
        workers = ws;
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            ws[i].startAt(start);
            ts[i] = new Thread(ws[i], "ackscope-load-" + i);
        }
        for (Thread t : ts) {
            t.start();
        }
        if (cancelled) {
            cancel(); // a cancel that came before the workers were published
        }
        for (Thread t : ts) {
            t.join();
        }
        for (LoadWorker w : ws) {
            if (w.fatal != null) {
                throw w.fatal;
            }
        }
        return LoadResult.merge(config, ws, start + config.warmupNanos(), epochOffset, connectionIds.get());
    }

    /** Stops the run early; safe to call from any thread, any number of times. */
    public void cancel() {
        cancelled = true;
        LoadWorker[] ws = workers;
        if (ws != null) {
            for (LoadWorker w : ws) {
                w.wakeup();
            }
        }
    }

    boolean cancelled() {
        return cancelled;
    }

    /** Part {@code i} of {@code total} split into {@code parts} as evenly as possible. */
    private static long share(long total, int parts, int i) {
        return total / parts + (i < total % parts ? 1 : 0);
    }
}
