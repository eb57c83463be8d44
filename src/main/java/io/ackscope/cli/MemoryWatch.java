package io.ackscope.cli;

import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Locale;

/**
 * Ends a command whose heap is full instead of letting it spin: when the collectors took at least {@link #GC_SHARE}
 * of the last {@link #WINDOW_MILLIS} and the old generation stayed at least {@link #FULL} full after its
 * collections, the command prints {@link OutOfMemory}'s line and exits 1 ({@link BoundedExit}, hooks given
 * {@link #EXIT_GRACE_MILLIS}).
 *
 * <p>The JVM's own limit (the parallel collector's GC overhead limit: 98% of the time and under 2% freed, five
 * collections in a row) is not enough: a heap where each full collection frees a little more than 2%, or where the
 * {@link OutOfMemoryError}s land in threads that let go of their memory (Spark's progress and heartbeat threads),
 * never reaches it. 1,000,000 open connections carried into a run with {@code -Xmx1g} spun in full collections
 * for over 10 minutes (95-100% of every 5 s in them) and did not end on SIGTERM; with this watch it ends in seconds.
 * A healthy run of the same capture with a large heap spent at most 76% of any 5 s in collections.
 *
 * <p>One daemon thread, polling every {@link #POLL_MILLIS} from samples kept in arrays made up front.
 */
final class MemoryWatch {
    /** The system property that turns the watch off ({@code -Dackscope.memoryWatch=off}). */
    static final String PROPERTY = "ackscope.memoryWatch";
    static final long WINDOW_MILLIS = 10_000;
    static final long POLL_MILLIS = 500;
    static final double GC_SHARE = 0.9;
    static final double FULL = 0.9;
    static final long EXIT_GRACE_MILLIS = 5_000;
    private static final int RESERVE_BYTES = 2 << 20;
    /** Tries at making the full line, {@link #RETRY_MILLIS} apart, before the one made up front is printed. */
    private static final int TRIES = 20;
    private static final long RETRY_MILLIS = 100;
    private static final int SAMPLES = (int) (WINDOW_MILLIS / POLL_MILLIS) * 4 + 1;

    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
    private final MemoryPoolMXBean old = oldGeneration();
    private final long[] wallMillis = new long[SAMPLES];
    private final long[] gcMillis = new long[SAMPLES];
    /** Held from the start and let go of when the heap is found full, so that the line can be made. */
    private byte[] reserve = new byte[RESERVE_BYTES];
    private int next;
    private int count;

    MemoryWatch() {
    }

    /** Starts the watch for command {@code command}, its line printed on {@code err}; returns the thread. */
    static Thread start(String command, PrintStream err) {
        MemoryWatch w = new MemoryWatch();
        String prefix = command.isEmpty() ? "ackscope: " : "ackscope " + command + ": ";
        String fallback = prefix + String.format(Locale.ROOT, "out of memory: the Java heap (-Xmx, %,d MB) filled "
                + "up; raise it (JAVA_OPTS=-Xmx... for jobs/ackscope, --driver-memory under spark-submit); nothing was "
                + "committed, the output is as it was", OutOfMemory.maxHeapBytes() >> 20);
        Thread t = new Thread(() -> w.run(prefix, fallback, err), "ackscope-memory-watch");
        t.setDaemon(true);
        t.setPriority(Thread.MAX_PRIORITY);
        t.start();
        return t;
    }

    private void run(String prefix, String fallback, PrintStream err) {
        while (true) {
            try {
                Thread.sleep(POLL_MILLIS);
                String why = sample(System.nanoTime() / 1_000_000, gcMillis(), oldShare());
                if (why != null) {
                    reserve = null;
                    fail(prefix, fallback, why, err);
                    return;
                }
            } catch (InterruptedException e) {
                return;
            } catch (OutOfMemoryError e) {
                // this poll found no room either; the next one tries again
            }
        }
    }

    /**
     * Records a sample: now and the collectors' total time (ms), the old generation's occupancy after its last
     * collection (of its maximum); returns why the heap counts as exhausted, or null.
     */
    String sample(long now, long gc, double full) {
        wallMillis[next] = now;
        gcMillis[next] = gc;
        next = (next + 1) % SAMPLES;
        count = Math.min(count + 1, SAMPLES);
        // the newest sample at least a window old
        for (int back = 1; back < count; back++) {
            int i = Math.floorMod(next - 1 - back, SAMPLES);
            long wall = now - wallMillis[i];
            if (wall >= WINDOW_MILLIS) {
                double share = (double) (gc - gcMillis[i]) / wall;
                if (share >= GC_SHARE && full >= FULL) {
                    return String.format(Locale.ROOT, "the collector ran %.0f%% of the last %.0f s and the heap "
                            + "stayed %.0f%% full", Math.min(100, share * 100), wall / 1000.0, full * 100);
                }
                return null;
            }
        }
        return null;
    }

    private long gcMillis() {
        long sum = 0;
        for (GarbageCollectorMXBean c : collectors) {
            sum += Math.max(0, c.getCollectionTime());
        }
        return sum;
    }

    /** The old generation's occupancy after its last collection, of its maximum (1 when there is none to read). */
    private double oldShare() {
        MemoryUsage u = old == null ? null : old.getCollectionUsage();
        if (u == null || u.getMax() <= 0) {
            return 1;
        }
        return (double) u.getUsed() / u.getMax();
    }

    /**
     * Prints the line (the full one if it can be made within {@link #TRIES}, else {@code fallback}) unless the JVM is
     * already on its way out (a signal), and exits 1.
     */
    private static void fail(String prefix, String fallback, String why, PrintStream err) {
        try {
            String line = null;
            for (int i = 0; i < TRIES && line == null && !BoundedExit.exiting(); i++) {
                try {
                    line = prefix + OutOfMemory.line(why);
                } catch (OutOfMemoryError e) {
                    Thread.sleep(RETRY_MILLIS);
                }
            }
            if (!BoundedExit.exiting()) {
                err.println(line != null ? line : fallback);
                err.flush();
            }
        } catch (OutOfMemoryError | InterruptedException e) {
            // no room to print even this, or stopped: the status still says it failed
        } finally {
            BoundedExit.exit(Command.EXIT_FAILURE, EXIT_GRACE_MILLIS);
        }
    }

    /** The heap pool collected least often: the old (tenured) generation. */
    private static MemoryPoolMXBean oldGeneration() {
        MemoryPoolMXBean best = null;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() != MemoryType.HEAP || !p.isCollectionUsageThresholdSupported()) {
                continue;
            }
            String n = p.getName();
            if (n.contains("Old") || n.contains("Tenured")) {
                return p;
            }
            if (best == null || p.getUsage().getMax() > best.getUsage().getMax()) {
                best = p;
            }
        }
        return best;
    }
}
