package io.ackscope.cli;

import java.util.Locale;

/**
 * The one line a command prints when the Java heap ran out: which heap, what fills it, how to raise it, and that
 * the output was not touched (every command that writes an output commits it last, all or nothing). A Spark task's
 * {@link OutOfMemoryError} reaches the driver as the cause, or only the text, of the job's failure.
 */
final class OutOfMemory {
    private OutOfMemory() {
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

    /** The message, for the heap of this JVM. */
    static String line(Throwable e) {
        long mb = Runtime.getRuntime().maxMemory() >> 20;
        return String.format(Locale.ROOT, "out of memory: the Java heap (-Xmx, %,d MB) filled up (%s); it holds the "
                + "state of every open connection (about 2 KB each, with its latency values) and Spark's buffers; "
                + "raise it, e.g. JAVA_OPTS=-Xmx%dm jobs/ackscope ... (or --driver-memory under spark-submit); "
                + "nothing was committed, the output is as it was", mb, what(e), Math.max(1024, 2 * mb));
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
