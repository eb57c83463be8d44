package io.ackscope.spark.source;

import io.ackscope.tcp.RoleEvidence;
import org.apache.spark.SparkContext;
import org.apache.spark.util.AccumulatorV2;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Collects the {@link SplitStats} of every split a scan reads, keyed by (file, split): a task that runs twice
 * (retry, speculation, a recomputed stage) replaces its earlier value instead of adding to it, so the per-file
 * accounting stays exact.
 *
 * <p>A job that wants the statistics of a {@code pcap} scan registers one with {@link #register} and passes its id
 * as the read option {@value #OPTION}; the scan then hands it to its tasks.
 */
public final class SplitStatsAccumulator extends AccumulatorV2<SplitStats, List<SplitStats>> {
    private static final long serialVersionUID = 1L;

    /** Read option naming the accumulator that receives the scan's split statistics. */
    public static final String OPTION = "ackscope.splitStats";

    private static final Map<String, SplitStatsAccumulator> REGISTERED = new ConcurrentHashMap<>();

    private final TreeMap<Long, SplitStats> splits = new TreeMap<>();
    /** The scan's plan, set on the driver when the scan is planned (not shipped to tasks). */
    private transient volatile ReadPlan plan;
    /**
     * On the driver once planned: per source, the union of its splits' roles evidence ({@link SplitStats#roles}),
     * which {@link #add} takes out of each split's statistics, so that the driver holds one set per source rather
     * than one per split (up to 2 x 65,536 endpoints each; an archive has thousands of splits).
     */
    private transient RoleEvidence[] roles;

    /** Creates, registers with {@code sc} and remembers (driver side) an accumulator under {@code id}. */
    public static SplitStatsAccumulator register(SparkContext sc, String id) {
        SplitStatsAccumulator acc = new SplitStatsAccumulator();
        sc.register(acc, "ackscope split statistics " + id);
        REGISTERED.put(id, acc);
        return acc;
    }

    /** The accumulator registered under {@code id} in this (driver) JVM, or null. */
    static SplitStatsAccumulator lookup(String id) {
        return id == null ? null : REGISTERED.get(id);
    }

    /** Forgets {@code id} (call when the job that registered it is done). */
    public static void unregister(String id) {
        REGISTERED.remove(id);
    }

    /** Called by the scan on the driver once it has planned its read. */
    public void planned(ReadPlan p) {
        this.plan = p;
    }

    /** The plan of the scan that uses this accumulator, or null before it was planned. */
    public ReadPlan plan() {
        return plan;
    }

    private static long key(SplitStats s) {
        return ((long) s.fileIndex << 32) | s.splitIndex;
    }

    @Override
    public boolean isZero() {
        synchronized (splits) {
            return splits.isEmpty();
        }
    }

    @Override
    public AccumulatorV2<SplitStats, List<SplitStats>> copy() {
        SplitStatsAccumulator c = new SplitStatsAccumulator();
        synchronized (splits) {
            c.splits.putAll(splits);
        }
        return c;
    }

    @Override
    public void reset() {
        synchronized (splits) {
            splits.clear();
        }
    }

    @Override
    public void add(SplitStats v) {
        synchronized (splits) {
            ReadPlan p = plan;
            if (p != null && v.roles != null) {
                // a set union: a split reported again (a retried task) adds nothing
                rolesOf(p)[p.files().get(v.fileIndex).source()].addAll(v.roles);
                v.roles = null;
            }
            splits.put(key(v), v);
        }
    }

    private RoleEvidence[] rolesOf(ReadPlan p) {
        if (roles == null) {
            roles = new RoleEvidence[p.sources().size()];
            for (int i = 0; i < roles.length; i++) {
                roles[i] = new RoleEvidence();
            }
        }
        return roles;
    }

    /**
     * Per source of the plan, what the frames read for {@code analyze}'s shuffle show of who serves
     * ({@link RoleEvidence}), merged as the tasks reported it: past {@link RoleEvidence#MAX_ENDPOINTS} endpoints in
     * a set, which are kept depends on the order the tasks ended. Call on the driver after the read.
     */
    public RoleEvidence[] roles() {
        synchronized (splits) {
            return rolesOf(plan).clone();
        }
    }

    @Override
    public void merge(AccumulatorV2<SplitStats, List<SplitStats>> other) {
        for (SplitStats s : other.value()) {
            add(s);
        }
    }

    /** The statistics in (file, split) order. */
    @Override
    public List<SplitStats> value() {
        synchronized (splits) {
            List<SplitStats> l = new ArrayList<>(splits.values());
            l.sort(Comparator.comparingInt(SplitStats::fileIndex).thenComparingInt(SplitStats::splitIndex));
            return l;
        }
    }
}
