package io.ackscope.spark;

import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageCompleted;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where an {@code analyze} run spends its task time: per phase (the job description set before each Spark
 * action), the executor run time and CPU time summed over tasks, shuffle bytes and shuffle write time. These are
 * task times, so with N cores busy they add up to about N times the wall time.
 */
final class StageTimes extends SparkListener {
    /** Totals of one phase. */
    static final class Phase {
        long runMillis;
        long cpuNanos;
        long shuffleWriteNanos;
        long shuffleWriteBytes;
        long shuffleReadBytes;
        long tasks;
    }

    private final Map<Integer, String> stagePhase = new ConcurrentHashMap<>();
    private final Map<String, Phase> phases = new LinkedHashMap<>();

    @Override
    public void onJobStart(SparkListenerJobStart e) {
        String d = e.properties() == null ? null : e.properties().getProperty("spark.job.description");
        String phase = d == null ? "other" : d;
        scala.jdk.javaapi.CollectionConverters.asJava(e.stageIds())
                .forEach(id -> stagePhase.putIfAbsent((Integer) id, phase));
    }

    @Override
    public synchronized void onStageCompleted(SparkListenerStageCompleted e) {
        TaskMetrics m = e.stageInfo().taskMetrics();
        if (m == null) {
            return;
        }
        Phase p = phases.computeIfAbsent(stagePhase.getOrDefault(e.stageInfo().stageId(), "other"), k -> new Phase());
        p.runMillis += m.executorRunTime();
        p.cpuNanos += m.executorCpuTime();
        p.shuffleWriteNanos += m.shuffleWriteMetrics().writeTime();
        p.shuffleWriteBytes += m.shuffleWriteMetrics().bytesWritten();
        p.shuffleReadBytes += m.shuffleReadMetrics().totalBytesRead();
        p.tasks += e.stageInfo().numTasks();
    }

    /** Phase name to a one-line description of its task time. */
    synchronized Map<String, String> describe() {
        Map<String, String> out = new LinkedHashMap<>();
        phases.forEach((name, p) -> out.put(name, String.format(java.util.Locale.ROOT,
                "%d %s, %.1f s task time (%.1f s CPU), shuffle write %.1f s / %s, shuffle read %s", p.tasks,
                p.tasks == 1 ? "task" : "tasks",
                p.runMillis / 1e3, p.cpuNanos / 1e9, p.shuffleWriteNanos / 1e9,
                ProgressReporter.human(p.shuffleWriteBytes), ProgressReporter.human(p.shuffleReadBytes))));
        return out;
    }

    /** Seconds of wall time since {@code t} ({@link System#nanoTime}), for a phase's entry. */
    static double secondsSince(long t) {
        return (System.nanoTime() - t) / 1e9;
    }
}
