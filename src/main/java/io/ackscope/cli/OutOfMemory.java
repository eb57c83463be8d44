package io.ackscope.cli;

import io.ackscope.spark.HeapUse;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * The one line a command prints when the Java heap ran out: which heap (the {@code -Xmx} in force), what it held
 * ({@link HeapUse}: the open connections an appending run carried and the files it read), how to raise it, and that
 * the output was not touched (every command that writes an output commits it last, all or nothing). A Spark task's
 * {@link OutOfMemoryError} reaches the driver as the cause, or only the text, of the job's failure; a heap that
 * stays full while the collector takes all the time is found by {@link MemoryWatch}.
 */
final class OutOfMemory {
    /**
     * Heap an appending run needs per open connection it carries, for the size the line suggests: both passes'
     * states and the latency values are read back into the driver's tasks (1,000,000 carried connections from
     * {@code OpenConnectionsCapture}: a 3 GB heap finished, 1 GB spun in full collections, jobs/lab-memory).
     */
    static final long CARRIED_BYTES = 3_000;

    /** The first {@link OutOfMemoryError} that ended a thread of this JVM without reaching a command, or null. */
    private static volatile OutOfMemoryError inAnotherThread;

    private OutOfMemory() {
    }

    /**
     * Notes a heap that ran out in a thread of its own: Spark's context cleaner, listener bus or heartbeat thread
     * meets the full heap first, stops the Spark context and dies, and the command sees only "Job cancelled because
     * SparkContext was shut down". Such an error is kept for {@link #inAnotherThread} and printed in one line, without
     * its stack trace; any other uncaught throwable is printed as the JVM prints it. Threads with a handler of their own keep it.
     */
    static void noteUncaught() {
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            if (e instanceof OutOfMemoryError oom) {
                if (inAnotherThread == null) {
                    inAnotherThread = oom;
                }
                System.err.println("Exception in thread \"" + thread.getName() + "\" " + oom);
            } else if (before != null) {
                before.uncaughtException(thread, e);
            } else if (!(e instanceof ThreadDeath)) {
                System.err.print("Exception in thread \"" + thread.getName() + "\" ");
                e.printStackTrace(System.err);
            }
        });
    }

    /** The heap running out in another thread of this JVM ({@link #noteUncaught}), or null. */
    static OutOfMemoryError inAnotherThread() {
        return inAnotherThread;
    }

    /** Whether {@code e} or one of its causes is the heap running out. */
    static boolean causedBy(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof OutOfMemoryError || String.valueOf(t.getMessage()).contains("java.lang.OutOfMemoryError")) {
                return true;
            }
        }
        return false;
    }

    /** The message for the failure {@code e}, for the heap of this JVM. */
    static String line(Throwable e) {
        return line(what(e));
    }

    /** The message, {@code why} saying how the heap was found full. */
    static String line(String why) {
        long mb = maxHeapBytes() >> 20;
        String holding = HeapUse.holding();
        return String.format(Locale.ROOT, "out of memory: the Java heap (-Xmx, %,d MB) filled up (%s)%s; it holds "
                + "the state of every open connection (about %d KB each, with its latency values) and Spark's buffers; "
                + "raise it, e.g. JAVA_OPTS=-Xmx%s jobs/ackscope ... (or --driver-memory under spark-submit); nothing "
                + "was committed, the output is as it was", mb, why,
                holding == null ? "" : " holding " + holding, CARRIED_BYTES / 1000,
                suggested(mb, HeapUse.carried()));
    }

    /**
     * The heap to suggest, as an {@code -Xmx} value: twice this one, at least 1 GB, and at least what {@code carried}
     * open connections need on top of a 1 GB base, in whole GB above 1 GB.
     */
    static String suggested(long heapMb, long carried) {
        long mb = Math.max(1024, 2 * heapMb);
        mb = Math.max(mb, 1024 + carried * CARRIED_BYTES / (1 << 20));
        return mb <= 1024 ? "1g" : ((mb + 1023) / 1024) + "g";
    }

    /**
     * The {@code -Xmx} in force, in bytes: the JVM's MaxHeapSize, which {@code Runtime.maxMemory()} understates by a
     * survivor space with the parallel collector.
     */
    static long maxHeapBytes() {
        try {
            var hotspot = ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            return Long.parseLong(hotspot.getVMOption("MaxHeapSize").getValue());
        } catch (RuntimeException | LinkageError e) {
            return Runtime.getRuntime().maxMemory();
        }
    }

    private static String what(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof OutOfMemoryError && t.getMessage() != null) {
                return t.getMessage();
            }
        }
        return "in a Spark task";
    }
}
