package io.ackscope.tcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.UnaryOperator;

/**
 * The streaming engine for a whole capture (or several, concatenated in file order): routes each segment to the
 * {@link TupleTracker} of its canonical 4-tuple, numbers connections in order of first appearance (tshark's
 * {@code tcp.stream}), and emits every connection when it closes, idles out or the input ends.
 *
 * <p><b>Memory</b> grows with the connections open at once, never with the length of the input: a sweep every
 * {@link #SWEEP_INTERVAL_NANOS} of capture time emits and forgets 4-tuples whose connection is over by the rules of
 * {@link EngineConfig} (visiting only those due, from a queue ordered by due time), on a capture clock that ignores single frames whose timestamps jump more than
 * {@link #MAX_CLOCK_STEP_NANOS} ahead (bogus clocks). The sweep decides as {@link TupleTracker} itself would on that
 * 4-tuple's next packet, so results equal those of per-4-tuple runs, with one exception: a connection idle for
 * longer than the idle timeout that then continues its sequence space exactly is one connection for a
 * {@link TupleTracker} but two here if the sweep emitted it in between.
 */
public final class TcpEngine {
    /** How often (capture time) the table is swept for finished connections. */
    public static final long SWEEP_INTERVAL_NANOS = 1_000_000_000L;
    /** Extra idle time before the sweep forgets a 4-tuple, to tolerate timestamps that run backwards. */
    public static final long SWEEP_SLACK_NANOS = 10_000_000_000L;
    /** A single frame more than this far ahead of the capture clock does not move it; two in a row do. */
    public static final long MAX_CLOCK_STEP_NANOS = 3_600_000_000_000L;

    private final EngineConfig config;
    private final AnalysisSink sink;
    private final boolean boundariesOnly;
    private final StreamCounter streams = new StreamCounter();
    private final TupleTable<Entry> table = new TupleTable<>();
    private final PriorityQueue<Due> queue = new PriorityQueue<>((x, y) -> Long.compare(x.at, y.at));
    private final TupleKey probe = new TupleKey();
    private final FrameAnalysis fa = new FrameAnalysis();
    /** Frame analysis for the SYNs the sweep replays, so {@link #fa} stays the current frame's. */
    private final FrameAnalysis sweepFa = new FrameAnalysis();
    private final Segment replay = new Segment();
    /** Analyzers of recent unanswered attempts, shared by this engine's trackers ({@link WarmAttempts}). */
    private final WarmAttempts warmAttempts = new WarmAttempts();
    private long maxTs = Long.MIN_VALUE;
    private boolean jumpPending;
    private long lastSweep = Long.MIN_VALUE;
    private int peakOpen;
    private long segments;
    private long attemptsEvicted;
    private long forgotten;
    /** Decides the roles of connections without a captured handshake ({@link #roles}). */
    private RoleEvidence roles = RoleEvidence.NONE;

    public TcpEngine(EngineConfig config, AnalysisSink sink) {
        this(config, sink, false);
    }

    private TcpEngine(EngineConfig config, AnalysisSink sink, boolean boundariesOnly) {
        this.config = config;
        this.sink = sink;
        this.boundariesOnly = boundariesOnly;
    }

    /**
     * An engine that only finds where connections start and end: it runs the parts of the analysis those decisions
     * depend on (tshark's sequence analysis, SYN times, window scaling, close state) and reports each connection
     * through {@link AnalysisSink#onConnectionBoundary} alone. A job that needs global stream numbers before its
     * real pass uses it (analyze's pass 1 went from 4.3 to 2.7 CPU-s on a 1.3 GB capture, shuffle read included).
     */
    public static TcpEngine boundariesOnly(EngineConfig config, AnalysisSink sink) {
        return new TcpEngine(config, sink, true);
    }

    public TcpEngine(AnalysisSink sink) {
        this(EngineConfig.DEFAULTS, sink);
    }

    private TupleTracker newTracker() {
        TupleTracker t = new TupleTracker(config, streams, sink, boundariesOnly, fa, replay, warmAttempts);
        t.roles(roles);
        if (sink.takesFinalRecordsOnly()) {
            t.deferEvicted();
        }
        return t;
    }

    /**
     * Connections this engine starts from now on take their roles from {@code evidence} (gathered over the whole
     * source before the engine runs, {@link RoleEvidence#observe}: analyze's read stage notes every frame it
     * shuffles); call before the first {@link #accept} or {@link #resume}.
     */
    public TcpEngine roles(RoleEvidence evidence) {
        roles = evidence;
        return this;
    }

    /** Analyses one segment. Segments must come in capture order (file order, then frame order). */
    public void accept(Segment s) {
        segments++;
        probe.set(s);
        Entry e = table.get(probe);
        if (e == null) {
            e = new Entry(new TupleKey().copy(probe), newTracker(), streams.count());
            table.put(e.key, e);
            if (table.size() > peakOpen) {
                peakOpen = table.size();
            }
        }
        e.tracker.accept(s);
        long due = e.tracker.dueAfter();
        if (due < e.scheduled) {
            e.scheduled = due;
            queue.add(new Due(due, e));
        }
        long now = s.timestampNanos;
        if (maxTs == Long.MIN_VALUE) {
            maxTs = now;
        } else if (now > maxTs) {
            if (now - maxTs <= MAX_CLOCK_STEP_NANOS || jumpPending) {
                maxTs = now;
                jumpPending = false;
            } else {
                jumpPending = true;
                return;
            }
        }
        jumpPending = false;
        if (lastSweep == Long.MIN_VALUE) {
            lastSweep = now;
        } else if (maxTs - lastSweep >= SWEEP_INTERVAL_NANOS) {
            sweep();
        }
    }

    /**
     * Lets every tracker that is due at the horizon act (see {@link TupleTracker#sweep}). Only the due ones are visited:
     * the queue holds each 4-tuple under the time after which its tracker may act, and a tracker that a later packet
     * made due later is put back under its new time when its old one comes.
     */
    private void sweep() {
        lastSweep = maxTs;
        long horizon = maxTs - SWEEP_SLACK_NANOS;
        while (!queue.isEmpty() && queue.peek().at < horizon) {
            Due d = queue.poll();
            Entry e = d.entry;
            if (e.removed || d.at != e.scheduled) {
                continue;      // forgotten, or queued again under an earlier time already handled
            }
            TupleTracker.Swept what = e.tracker.sweep(horizon, sweepFa);
            if (what == TupleTracker.Swept.FORGET) {
                table.remove(e.key);
                e.removed = true;
                forgotten++;
                continue;
            }
            if (what == TupleTracker.Swept.ATTEMPT_EMITTED) {
                attemptsEvicted++;
            }
            e.scheduled = e.tracker.dueAfter();
            queue.add(new Due(e.scheduled, e));
        }
    }

    /** Emits every connection still open, in stream order. */
    public void finish() {
        List<Entry> rest = table.values();
        table.clear();
        queue.clear();
        rest.sort((x, y) -> Long.compare(x.firstStream, y.firstStream));
        for (Entry e : rest) {
            e.tracker.finish();
        }
    }

    /**
     * Every 4-tuple still held, before {@link #finish()}, to continue in a later engine ({@link #resume}): in the order
     * {@link #finish()} would emit them. Every {@link ConnectionId} in the state goes through {@code ids} (once per
     * id). The engine is unchanged: it may go on, or finish.
     *
     * <p>What a consumer does with the results ({@code analyze --incremental}): the records {@link #finish()} gives
     * after a hold are provisional, and so are those of the {@link #revivable} attempts; a later engine that resumes
     * every held 4-tuple and reads the rest of the input then gives the others, so that the records given before the
     * hold, less the provisional ones, and the later engine's records are exactly those of one engine over the whole
     * input (a revived attempt's first record superseded by its last, as within one engine). Exact when the later
     * engine resumes the 4-tuples of one engine, which carry its capture clock (so sweeps fall at the same capture
     * times); tuples of several engines resumed in one take the latest clock.
     */
    public List<HeldTuple> hold(UnaryOperator<ConnectionId> ids) {
        List<Entry> open = table.values();
        open.sort((x, y) -> Long.compare(x.firstStream, y.firstStream));
        TrackerState.Clock clock = new TrackerState.Clock(maxTs, lastSweep, jumpPending);
        Map<ConnectionId, ConnectionId> once = new java.util.IdentityHashMap<>();
        UnaryOperator<ConnectionId> rewrite = id -> once.computeIfAbsent(id, ids);
        List<HeldTuple> out = new ArrayList<>(open.size());
        for (Entry e : open) {
            TupleKey k = e.key;
            out.add(new HeldTuple(k.aHi, k.aLo, k.aPort, k.bHi, k.bLo, k.bPort,
                    TrackerState.write(e.tracker, clock, rewrite)));
        }
        return out;
    }

    /**
     * Takes over a 4-tuple {@link #hold} gave (from an engine of the same kind), before this engine's first
     * {@link #accept}. Its connections keep the ids the hold wrote; new ones are numbered from this engine's count.
     *
     * @throws IllegalArgumentException the state was written by another ackscope version, by an engine of the other
     *                                  kind, or is malformed; or its 4-tuple is held already
     * @throws IllegalStateException    this engine has accepted a segment
     */
    public void resume(HeldTuple held) {
        if (segments > 0) {
            throw new IllegalStateException("resume before the first segment");
        }
        TupleKey key = new TupleKey();
        key.aHi = held.aHi();
        key.aLo = held.aLo();
        key.aPort = held.aPort();
        key.bHi = held.bHi();
        key.bLo = held.bLo();
        key.bPort = held.bPort();
        if (table.containsKey(key)) {
            throw new IllegalArgumentException("4-tuple " + key + " resumed twice");
        }
        TupleTracker fresh = newTracker();
        TrackerState.Read r = TrackerState.read(held.state(), fresh);
        if (r.boundariesOnly() != boundariesOnly) {
            throw new IllegalArgumentException("held state of " + key + " is a" + (r.boundariesOnly()
                    ? " boundaries-only" : " full") + " engine's; this engine is the other kind");
        }
        TrackerState.Clock c = r.clock();
        if (maxTs == Long.MIN_VALUE || c.maxTs() > maxTs) {
            maxTs = c.maxTs();
            lastSweep = c.lastSweep();
            jumpPending = c.jumpPending();
        }
        r.tracker().roles(roles);
        Entry e = new Entry(key, r.tracker(), Long.MIN_VALUE + table.size());
        table.put(key, e);
        peakOpen = Math.max(peakOpen, table.size());
        e.scheduled = e.tracker.dueAfter();
        queue.add(new Due(e.scheduled, e));
    }

    /**
     * The unanswered attempts whose record this engine's sweep gave (before the end) while their 4-tuple is still
     * held, as tombstones: a later segment may revive one ({@link AnalysisSink#onAttemptRevived}), superseding that
     * record. A run that continues in a later engine ({@link #hold}) treats their records as provisional: the later
     * engine gives each again when it lets go of the tombstone, or the complete one if it revives it.
     */
    public List<ConnectionId> revivable() {
        List<ConnectionId> out = new ArrayList<>();
        for (Entry e : table.values()) {
            ConnectionId id = e.tracker.revivable();
            if (id != null) {
                out.add(id);
            }
        }
        return out;
    }

    /** 4-tuples currently held. */
    public int openTuples() {
        return table.size();
    }

    /** Most 4-tuples held at once. */
    public int peakOpenTuples() {
        return peakOpen;
    }

    /** Connections numbered so far. */
    public long connections() {
        return streams.count();
    }

    /**
     * Unanswered connection attempts the sweep emitted before the end of the input because they saw no packet for
     * {@link EngineConfig#attemptTimeoutNanos()} (their records are those the end of the input would give).
     */
    public long attemptsEvicted() {
        return attemptsEvicted;
    }

    /** 4-tuples the sweep let go of (their connection emitted, or their tombstone expired) before the end. */
    public long tuplesForgotten() {
        return forgotten;
    }

    /** Segments accepted so far. */
    public long segments() {
        return segments;
    }

    /** A 4-tuple's place in the sweep's queue: its tracker may act after capture time {@code at}. */
    private record Due(long at, Entry entry) {
    }

    private final class Entry {
        final TupleKey key;
        final TupleTracker tracker;
        /** Streams counted before this entry came (resumed entries come before all: negative), for finish's order. */
        final long firstStream;
        /** The earliest time this entry is queued under. */
        long scheduled = Long.MAX_VALUE;
        boolean removed;

        Entry(TupleKey key, TupleTracker tracker, long firstStream) {
            this.key = key;
            this.tracker = tracker;
            this.firstStream = firstStream;
        }
    }
}
