package io.ackscope.spark;

import io.ackscope.spark.source.CapturePartition;
import io.ackscope.spark.source.CaptureSplit;
import io.ackscope.spark.source.ReadPlan;
import io.ackscope.spark.source.SplitStats;
import io.ackscope.spark.source.SplitStatsAccumulator;

import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Console progress of an {@code analyze} run. While captures are read it shows files and bytes done of the total,
 * the rate and an ETA, from the split statistics the read tasks report as they finish (exact, since a split counts
 * only once it is read); afterwards it shows the task count of the running stage (from a {@link SparkListener}).
 * On a terminal it redraws one line about twice a second; otherwise it prints a line every {@code logEverySeconds}.
 */
final class ProgressReporter extends SparkListener implements AutoCloseable {
    private final PrintStream out;
    private final SplitStatsAccumulator splits;
    private final boolean terminal;
    private final long intervalNanos;
    private final long startNanos = System.nanoTime();
    private final AtomicInteger stageTasks = new AtomicInteger();
    private final AtomicInteger stageDone = new AtomicInteger();
    private volatile String stageName;
    private volatile String phase = "reading captures";
    private final Thread thread;
    private volatile boolean stopped;
    private int lastLength;

    ProgressReporter(PrintStream out, SplitStatsAccumulator splits, boolean terminal, int logEverySeconds) {
        this.out = out;
        this.splits = splits;
        this.terminal = terminal;
        this.intervalNanos = terminal ? 500_000_000L : logEverySeconds * 1_000_000_000L;
        this.thread = new Thread(this::loop, "ackscope-progress");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Names the phase shown after reading (for example "writing packets"). */
    void phase(String name) {
        this.phase = name;
    }

    private void loop() {
        long next = System.nanoTime() + intervalNanos;
        while (!stopped) {
            try {
                Thread.sleep(Math.max(1, (next - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                return;
            }
            if (stopped) {
                return;
            }
            next += intervalNanos;
            print(line());
        }
    }

    String line() {
        ReadPlan plan = splits.plan();
        double secs = (System.nanoTime() - startNanos) / 1e9;
        if (plan == null) {
            return String.format(Locale.ROOT, "ackscope: planning the read (%.0f s)", secs);
        }
        List<SplitStats> done = splits.value();
        long total = plan.totalBytes();
        long bytes = 0;
        int[] splitsDone = new int[plan.files().size()];
        java.util.HashSet<Long> doneKeys = new java.util.HashSet<>();
        for (SplitStats s : done) {
            splitsDone[s.fileIndex()]++;
            doneKeys.add(((long) s.fileIndex() << 32) | s.splitIndex());
        }
        int filesDone = 0;
        for (int i = 0; i < splitsDone.length; i++) {
            if (splitsDone[i] >= plan.filePlans().get(i).splits()) {
                filesDone++;
            }
        }
        for (CapturePartition p : plan.partitions()) {
            for (CaptureSplit s : p.splits()) {
                if (doneKeys.contains(((long) s.file().index() << 32) | s.splitIndex())) {
                    bytes += s.byteLength();
                }
            }
        }
        StringBuilder sb = new StringBuilder(120);
        if (bytes < total) {
            double rate = bytes / Math.max(secs, 1e-3);
            sb.append(String.format(Locale.ROOT, "ackscope: read %d/%d files, %s of %s (%.0f%%), %s/s",
                    filesDone, plan.files().size(), human(bytes), human(total), 100.0 * bytes / Math.max(1, total),
                    human((long) rate)));
            if (bytes > 0) {
                sb.append(String.format(Locale.ROOT, ", ETA %s", duration((total - bytes) / rate)));
            }
        } else {
            sb.append(String.format(Locale.ROOT, "ackscope: read %d %s (%s); %s", plan.files().size(),
                    plan.files().size() == 1 ? "file" : "files", human(total), phase));
            String stage = stageName;
            if (stage != null) {
                sb.append(String.format(Locale.ROOT, ": %d/%d tasks", stageDone.get(), stageTasks.get()));
            }
        }
        sb.append(String.format(Locale.ROOT, " [%s]", duration(secs)));
        return sb.toString();
    }

    private synchronized void print(String line) {
        if (terminal) {
            int pad = Math.max(0, lastLength - line.length());
            out.print("\r" + line + " ".repeat(pad));
            lastLength = line.length();
        } else {
            out.println(line);
        }
        out.flush();
    }

    @Override
    public void onStageSubmitted(SparkListenerStageSubmitted e) {
        stageName = e.stageInfo().name();
        stageTasks.set(e.stageInfo().numTasks());
        stageDone.set(0);
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd e) {
        if (e.taskInfo().successful()) {
            stageDone.incrementAndGet();
        }
    }

    @Override
    public void onStageCompleted(SparkListenerStageCompleted e) {
        stageName = null;
    }

    /** Stops the display and ends the redrawn line. */
    @Override
    public synchronized void close() {
        stopped = true;
        thread.interrupt();
        if (terminal && lastLength > 0) {
            out.print("\r" + " ".repeat(lastLength) + "\r");
            out.flush();
        }
    }

    static String human(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KB", "MB", "GB", "TB"};
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, v >= 100 ? "%.0f %s" : "%.1f %s", v, units[u]);
    }

    static String duration(double secs) {
        long s = Math.round(secs);
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%d h %02d min", s / 3600, (s % 3600) / 60);
    }
}
