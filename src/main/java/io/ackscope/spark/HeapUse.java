package io.ackscope.spark;

import java.util.Locale;

/**
 * What the heap of this JVM holds for the run in progress, in words, for the line a command prints when the heap
 * runs out ({@code cli.OutOfMemory}): the open connections an appending run carries from the run before (each one's
 * engine state and latency values stay in memory until the connection ends) and the files it reads. Set by the
 * driver before the work that fills the heap starts; one run at a time per JVM, as {@code analyze} runs.
 */
public final class HeapUse {
    private static volatile String holding;
    private static volatile long carried;

    private HeapUse() {
    }

    /** Notes that the run in progress carries {@code carried} open connections and reads {@code files} files. */
    static void note(long carriedConnections, int files, long bytes) {
        carried = carriedConnections;
        String reading = String.format(Locale.ROOT, "%,d %s (%s)", files, files == 1 ? "file" : "files",
                ProgressReporter.human(bytes));
        holding = carriedConnections > 0
                ? String.format(Locale.ROOT, "%,d open connections carried from the last run, reading %s new",
                carriedConnections, reading)
                : "the connections of " + reading;
    }

    /** Forgets the run before (a new run starts; the line of a run that failed is printed after it ended). */
    static void clear() {
        holding = null;
        carried = 0;
    }

    /** What the heap holds, in words, or null when no run noted it. */
    public static String holding() {
        return holding;
    }

    /** The open connections carried from the run before by the run in progress (0: none or no run). */
    public static long carried() {
        return carried;
    }
}
