package io.ackscope.tcp;

import static io.ackscope.decode.PacketDecoder.ACK;
import static io.ackscope.decode.PacketDecoder.SYN;

/**
 * Connection identification for one canonical 4-tuple (part a of the engine), like tshark's {@code tcp.stream}.
 *
 * <p><b>Contract.</b> Feed it every segment of one 4-tuple (either direction) in the order a whole-file
 * {@link TcpEngine} sees them: by file index, then frame number (tshark's one-pass order; a job that sorts by
 * timestamp gets the same whenever timestamps do not run backwards inside a file and files are given in time order).
 * It splits them into connections and runs a {@link ConnectionAnalyzer} on each. All results depend only on that
 * 4-tuple's segments, so a job may group segments by {@link TupleKey}, run one tracker per group (in any order, on
 * any machine) and get exactly what a whole-file {@link TcpEngine} run gives, except the stream numbers, which it
 * renumbers by each connection's (first file index, first frame number).
 *
 * <p>A new connection starts on the same 4-tuple when:
 * <ul>
 *   <li>a pure SYN arrives whose sequence number differs from the base sequence number of its direction in the
 *       current connection (tshark's port-reuse rule; a SYN repeating it is a retransmission and only restores
 *       tshark's next-sequence state);</li>
 *   <li>the current connection closed (RST, or both FINs acknowledged) more than
 *       {@link EngineConfig#closedLingerNanos()} before, or has been idle longer than
 *       {@link EngineConfig#idleTimeoutNanos()} and the segment does not continue its sequence space exactly
 *       (ackscope's bound on memory; tshark never splits on time).</li>
 * </ul>
 * A SYN/ACK whose ISN differs only re-bases its direction (as tshark does), it does not start a connection.
 *
 * <p><b>Unanswered attempts.</b> While a connection is nothing but the originator's SYNs (at most
 * {@link SynAttempt#MAX_SYNS}), the tracker holds them packed ({@link SynAttempt}, about 100 bytes) instead of an
 * analyzer, and replays them into a new analyzer, with the sink muted, when the next segment comes: results are
 * exactly those of an analyzer kept throughout. {@link TcpEngine}'s sweep emits such an attempt when it has seen no
 * packet for {@link EngineConfig#attemptTimeoutNanos()} (its record is the one the end of the input would give) and
 * then keeps the packed SYNs as a tombstone for as long again. A segment that comes to a tombstone continues the
 * same connection, as it does in tshark, unless it is a SYN from the originator with another ISN (a new connection,
 * tshark's port reuse): the SYNs are replayed and the connection goes on with the same {@link ConnectionId} and so
 * the same stream number, which it does not count again; when it ends, its record is a second one for that stream,
 * complete (the first one's frames included, a superset of the first record), so a reader keeps the last record of a
 * stream ({@link AnalysisSink#onAttemptRevived} tells the sink at once; {@code analyze}'s sink takes an
 * evicted attempt's record only once it is final ({@link AnalysisSink#takesFinalRecordsOnly}), or learns the
 * revivals in a first pass, and writes only the last record; {@code conv} keeps the last row). After the tombstone is forgotten, a segment on the 4-tuple starts a new connection
 * with a new stream number (where tshark would still count the old one). A closed connection the sweep emitted
 * after its linger is kept likewise, as its {@link ConnectionId} and initial sequence numbers, for the attempt
 * timeout: a SYN repeating one of them (a client retrying after a RST) gets the stream again in a new analyzer, whose
 * record is a second one for the stream. An attempt timeout no shorter than the idle timeout keeps no tombstones:
 * attempts then idle out like other connections.
 *
 * <p><b>Held state.</b> A tracker serializes ({@link TcpEngine#hold}, {@link TrackerState}); the objects it shares
 * with its engine are bound to the resuming engine's. A tombstone resumed in a later engine had its record given by
 * the earlier one, which a continuing run treats as provisional (it may be superseded): this tracker gives that
 * record again when it lets go of the tombstone (forgotten, replaced by a new connection, or at the end), and gives
 * the boundary of a revived one at its end, so that across engines every connection's record and boundary come once.
 */
public final class TupleTracker implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final EngineConfig config;
    private final StreamCounter streams;
    private final AnalysisSink sink;
    private final boolean boundariesOnly;
    private final FrameAnalysis fa;
    private ConnectionAnalyzer current;
    /**
     * The last connection of this 4-tuple that ended, null none: a later one reuses its ports (tshark's "TCP port
     * numbers reused" on its SYN), which the connection-churn cause reports. An id, not a stream number: a tracker
     * resumed in a later engine ({@link TcpEngine#resume}) meets stream numbers of that engine's count.
     */
    private ConnectionId ended;
    /** When {@link #ended} ended: its close (the RST, or the ACK of the second FIN), else its last frame; epoch ns. */
    private long endedAt = -1;
    /** The current connection as packed SYNs instead of {@link #current} (see the class comment), or null. */
    private long[] attempt;
    /** Stream number of {@link #attempt} (its first frame is the first packed SYN's). */
    private long attemptStream;
    /**
     * The id of {@link #attempt} when it came from held state ({@link TcpEngine#hold} may rewrite ids), else null:
     * the id is then rebuilt from the first packed SYN, which costs no memory while the attempt waits.
     */
    private ConnectionId attemptId;
    /** {@link #attempt} was emitted by the sweep and is kept as a tombstone. */
    private boolean attemptEmitted;
    /**
     * {@link #attempt} is a tombstone whose record is owed: this tracker gives it when it lets go of the tombstone or
     * the input ends, unless the attempt is revived (then its complete record, and its boundary, come at its end).
     * Either an earlier engine gave the record before this one resumed the tombstone (that record was provisional),
     * or this engine defers evicted attempts' records ({@link #deferEvicted}).
     */
    private boolean owed;
    /**
     * The sweep evicts an attempt without giving its record, which is then {@link #owed}
     * ({@link AnalysisSink#takesFinalRecordsOnly}).
     */
    private transient boolean deferEvicted;
    /**
     * The analyzer whose SYNs {@link #attempt} holds, while {@link #warmAttempts} keeps it: the segment that continues
     * the attempt continues it instead of an analyzer rebuilt from the packed SYNs ({@link #inflate}), which would be
     * in the same state. Null when not kept (dropped for newer attempts, or never kept: held state keeps none).
     */
    private transient ConnectionAnalyzer warm;
    /** The engine's warm attempts, shared like {@link #replay}; null in a tracker resumed from held state. */
    private transient WarmAttempts warmAttempts;
    private final Segment replay;
    /**
     * Decides the roles of each new connection; shared with the engine, which binds it again after a resume (not
     * part of held state).
     */
    private transient RoleEvidence roles = RoleEvidence.NONE;

    private static final AnalysisSink MUTED = new AnalysisSink() {
    };

    /** The per-engine objects a tracker shares with its engine (not part of its held state). */
    EngineConfig config() {
        return config;
    }

    StreamCounter streams() {
        return streams;
    }

    AnalysisSink sink() {
        return sink;
    }

    FrameAnalysis frameAnalysis() {
        return fa;
    }

    Segment replay() {
        return replay;
    }

    boolean boundariesOnly() {
        return boundariesOnly;
    }

    /** New connections of this 4-tuple take their roles from {@code evidence}. */
    void roles(RoleEvidence evidence) {
        roles = evidence;
    }

    /** The sweep evicts attempts without giving their records ({@link AnalysisSink#takesFinalRecordsOnly}). */
    void deferEvicted() {
        deferEvicted = true;
    }

    private ConnectionAnalyzer analyzer(ConnectionId id, Segment first, AnalysisSink to, FrameAnalysis into) {
        return new ConnectionAnalyzer(id, first, roles.decide(first), to, boundariesOnly, into);
    }

    private ConnectionId idOf(long stream, Segment first) {
        return ConnectionId.of(stream, first, roles.decide(first));
    }

    public TupleTracker(EngineConfig config, StreamCounter streams, AnalysisSink sink) {
        this(config, streams, sink, false, new FrameAnalysis(), new Segment());
    }

    /**
     * @param boundariesOnly only find connections (see {@link TcpEngine#boundariesOnly})
     * @param fa             the per-frame result, shared by every tracker of one engine (it is filled and handed to
     *                       the sink one frame at a time)
     * @param replay         scratch segment that packed SYNs are replayed through, shared likewise
     */
    TupleTracker(EngineConfig config, StreamCounter streams, AnalysisSink sink, boolean boundariesOnly,
                 FrameAnalysis fa, Segment replay) {
        this(config, streams, sink, boundariesOnly, fa, replay, null);
    }

    /** @param warmAttempts the engine's attempts kept warm ({@link WarmAttempts}), shared likewise; null: none */
    TupleTracker(EngineConfig config, StreamCounter streams, AnalysisSink sink, boolean boundariesOnly,
                 FrameAnalysis fa, Segment replay, WarmAttempts warmAttempts) {
        this.warmAttempts = warmAttempts;
        this.replay = replay;
        this.config = config;
        this.streams = streams;
        this.sink = sink;
        this.boundariesOnly = boundariesOnly;
        this.fa = fa;
    }

    /** The closed connection the sweep emitted, kept as a tombstone, or null. */
    private Closed closed;

    /** What the sweep did with a tracker. */
    enum Swept {
        /** still held */
        KEEP,
        /** its unanswered attempt was emitted; it is kept as a tombstone */
        ATTEMPT_EMITTED,
        /** its connection was emitted (a closed one is kept as a tombstone), or its tombstone expired: forget it */
        FORGET
    }

    /** Analyses one segment of this 4-tuple. */
    public void accept(Segment s) {
        boolean reopening = false;
        if (closed != null) {
            Closed c = closed;
            closed = null;
            if (c.repeatsSyn(s) && s.timestampNanos - c.lastTs <= config.idleTimeoutNanos()) {
                current = analyzer(c.id, s, sink, fa);
                current.reopened();
                current.options(s);
                current.accept(s, false);
                return;
            }
        }
        ConnectionId inflated = null;
        if (attempt != null) {
            if (attemptEmitted && (s.flags & (SYN | ACK)) == SYN && SynAttempt.fromOriginator(attempt, s)
                    && s.seq != SynAttempt.isn(attempt)) {
                letGo(fa);
                attempt = null;          // a new connection on the tombstone's 4-tuple (port reuse)
                attemptEmitted = false;
            } else {
                reopening = attemptEmitted;
                if (warm != null) {
                    current = warm;      // it saw the packed SYNs, with this sink: an attempt not emitted
                    warm = null;
                } else {
                    inflate(fa, attemptEmitted && !owed);
                }
                owed = false;
                inflated = current.id();
                if (reopening) {
                    sink.onAttemptRevived(current.id());
                }
            }
        }
        step(s);
        if (!reopening && current.isAttempt() && SynAttempt.fits(s)) {
            // pack the attempt: the SYNs packed so far and this one, or this one when it started the connection
            boolean continued = attempt != null && current.id() == inflated;
            boolean started = current.id().firstFileIndex() == s.fileIndex
                    && current.id().firstFrameNumber() == s.frameNumber;
            if ((continued && SynAttempt.syns(attempt) < SynAttempt.MAX_SYNS) || started) {
                attempt = SynAttempt.append(continued ? attempt : null, s);
                attemptStream = current.id().stream();
                attemptId = continued ? attemptId : null;
                if (warmAttempts != null) {
                    warm = current;
                    warmAttempts.keep(this, current);
                }
                current = null;
                return;
            }
        }
        attempt = null;
        attemptId = null;
        attemptEmitted = false;
        warm = null;
    }

    /** Lets go of the warm analyzer if it is still {@code analyzer} ({@link WarmAttempts} keeps newer ones). */
    void dropWarm(ConnectionAnalyzer analyzer) {
        if (warm == analyzer) {
            warm = null;
        }
    }

    /** Tells the new {@link #current} when it reuses the ports of an earlier connection that ended. */
    private void reusesPorts() {
        if (ended != null && !ended.equals(current.id())) {
            current.reusesPorts(endedAt);
        }
    }

    /**
     * Rebuilds {@link #current} from the packed SYNs, which stay packed until the caller decides; the analyzer writes
     * each frame's analysis to {@code into} ({@link #fa} for one that goes on with the next segment).
     *
     * @param reopened the attempt's record was given already by this engine (the analyzer reports no new boundary)
     */
    private void inflate(FrameAnalysis into, boolean reopened) {
        warm = null;
        long[] log = attempt;
        SynAttempt.fill(log, 0, replay);
        current = analyzer(attemptId != null ? attemptId : idOf(attemptStream, replay), replay, MUTED, into);
        reusesPorts();
        current.options(replay);
        current.accept(replay, false);
        for (int i = 1, n = SynAttempt.syns(log); i < n; i++) {
            step(SynAttempt.fill(log, i, replay));
        }
        current.sink(sink);
        if (reopened) {
            current.reopened();
        }
    }

    /**
     * The tombstone is let go without a revival (forgotten, or replaced by a new connection): the record this engine
     * gave for it is final ({@link AnalysisSink#onAttemptSettled}), or the {@link #owed} one is given now (again, when
     * an earlier engine gave it provisionally).
     */
    private void letGo(FrameAnalysis into) {
        if (!owed) {
            sink.onAttemptSettled(attemptId());
            return;
        }
        owed = false;
        inflate(into, false);
        ConnectionAnalyzer c = current;
        current = null;
        c.finish(ConnectionRecord.EndReason.END_OF_INPUT);
    }

    /** The id of the packed attempt. */
    private ConnectionId attemptId() {
        return attemptId != null ? attemptId : idOf(attemptStream, SynAttempt.fill(attempt, 0, replay));
    }

    private void step(Segment s) {
        if (current != null && config.ends(current, s)) {
            end(current.isClosed() ? ConnectionRecord.EndReason.CLOSED : ConnectionRecord.EndReason.IDLE_TIMEOUT);
        }
        boolean reused = false;
        int f = s.flags & (SYN | ACK);
        if (current != null && f == SYN) {
            Flow fwd = current.fwd(s);
            if (fwd.baseSeqSet) {
                if (s.seq != fwd.baseSeq) {
                    end(ConnectionRecord.EndReason.PORT_REUSED);
                } else {
                    // tshark (issue 17616): a repeated SYN restores nextseq, and is flagged as port reuse
                    fwd.nextSeq = fwd.maxSeqToBeAcked;
                    reused = true;
                }
            }
        }
        if (current == null) {
            current = analyzer(idOf(streams.next(), s), s, sink, fa);
            reusesPorts();
        } else if (f == (SYN | ACK)) {
            Flow fwd = current.fwd(s);
            if (fwd.baseSeqSet && s.seq != fwd.baseSeq) {
                fwd.baseSeq = s.seq;
                reused = true;
            }
        }
        current.options(s);
        current.accept(s, reused);
    }

    /**
     * The capture time after which {@link #sweep} may act: it acts at {@code now} only if {@code now} is later. A new
     * segment can only make it later, except when it changes the kind of state (an open connection that closes, or is
     * replaced by a new attempt); the caller asks again after each segment.
     */
    long dueAfter() {
        if (attempt != null) {
            long t = SynAttempt.lastTs(attempt);
            return attemptEmitted ? plus(t, Math.min(2 * config.attemptTimeoutNanos(), config.idleTimeoutNanos()))
                    : plus(t, config.attemptTimeoutNanos());
        }
        if (closed != null) {
            return plus(closed.lastTs, config.closedLingerNanos() + config.attemptTimeoutNanos());
        }
        if (current == null) {
            return Long.MIN_VALUE;
        }
        return plus(current.lastTs(), current.isClosed() ? config.closedLingerNanos() : config.idleTimeoutNanos());
    }

    /** {@code t + d}, saturated (capture times can be Long.MAX_VALUE when a file's clock overflows). */
    private static long plus(long t, long d) {
        return t > Long.MAX_VALUE - d ? Long.MAX_VALUE : t + d;
    }

    /**
     * The sweep at capture time {@code now}: emits an unanswered attempt idle for longer than the attempt timeout
     * (keeping it as a tombstone), forgets a tombstone idle for twice that, and emits any other connection that is
     * over.
     *
     * @param scratch where the SYNs replayed to emit an attempt write their frame analysis: the sweep runs inside
     *                another 4-tuple's segment, after the engine's frame analysis was filled with that frame's, which
     *                a sink may still read until the next segment (fields does)
     */
    Swept sweep(long now, FrameAnalysis scratch) {
        if (attempt != null) {
            long idle = now - SynAttempt.lastTs(attempt);
            if (attemptEmitted) {
                if (idle > 2 * config.attemptTimeoutNanos() || idle > config.idleTimeoutNanos()) {
                    letGo(scratch);
                    return Swept.FORGET;
                }
                return Swept.KEEP;
            }
            if (idle <= config.attemptTimeoutNanos()) {
                return Swept.KEEP;
            }
            if (deferEvicted && config.attemptTimeoutNanos() < config.idleTimeoutNanos()) {
                warm = null;             // the record is given from the packed SYNs when it is owed no longer
                attemptEmitted = true;
                owed = true;
                return Swept.ATTEMPT_EMITTED;
            }
            inflate(scratch, false);
            ConnectionAnalyzer c = current;
            current = null;
            sink.onAttemptEvicted(c.id());
            c.finish(ConnectionRecord.EndReason.END_OF_INPUT);
            if (config.attemptTimeoutNanos() >= config.idleTimeoutNanos()) {
                attempt = null;
                sink.onAttemptSettled(c.id());
                return Swept.FORGET;
            }
            attemptEmitted = true;
            return Swept.ATTEMPT_EMITTED;
        }
        if (closed != null) {
            return now - closed.lastTs > config.closedLingerNanos() + config.attemptTimeoutNanos() ? Swept.FORGET
                    : Swept.KEEP;
        }
        if (current == null || config.expired(current, now)) {
            ConnectionAnalyzer c = current;
            finish();
            if (c != null && c.isClosed() && config.attemptTimeoutNanos() < config.idleTimeoutNanos()) {
                closed = new Closed(c);
                return Swept.KEEP;
            }
            return Swept.FORGET;
        }
        return Swept.KEEP;
    }

    /**
     * What the sweep keeps of a closed connection it emitted, for as long as the attempt timeout after the linger:
     * enough to give a SYN that repeats one of its initial sequence numbers the connection's stream again, as tshark
     * does (a client retrying 30 s after a RST).
     */
    static final class Closed implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        final ConnectionId id;
        final long aHi, aLo;
        final int aPort;
        final long aIsn, bIsn;    // -1 when that direction's base sequence number was never set
        final long lastTs;

        Closed(ConnectionAnalyzer c) {
            id = c.id();
            aHi = c.a.addrHi;
            aLo = c.a.addrLo;
            aPort = c.a.port;
            aIsn = c.a.baseSeqSet ? c.a.baseSeq : -1;
            bIsn = c.b.baseSeqSet ? c.b.baseSeq : -1;
            lastTs = c.lastTs();
        }

        boolean repeatsSyn(Segment s) {
            boolean fromA = s.srcLo == aLo && s.srcHi == aHi && s.srcPort == aPort;
            return (s.flags & (SYN | ACK)) == SYN && s.seq == (fromA ? aIsn : bIsn);
        }
    }

    /**
     * The unanswered attempt whose record this engine's sweep gave while its 4-tuple is still held as a tombstone, or
     * null: a later segment may revive it, superseding that record (see {@link TcpEngine#revivable}).
     */
    ConnectionId revivable() {
        return attempt == null || !attemptEmitted || owed ? null : attemptId();
    }

    /**
     * Held state ({@link TcpEngine#hold}): the fields, then the id of a packed attempt, which the fields hold only as
     * a stream number, so that it goes through the hold's id rewriting like every other id.
     */
    private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
        out.defaultWriteObject();
        out.writeObject(attempt == null ? null : attemptId());
    }

    /** Resumes held state: a tombstone's record came from the engine that held it, and is {@link #owed} again. */
    private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
        in.defaultReadObject();
        roles = RoleEvidence.NONE;
        Object id = in.readObject();
        if (attempt != null) {
            if (!(id instanceof ConnectionId) || !SynAttempt.valid(attempt)) {
                throw new java.io.InvalidObjectException("malformed packed attempt");
            }
            attemptId = (ConnectionId) id;
            attemptStream = attemptId.stream();
            owed |= attemptEmitted;
        }
    }

    /** Emits the current connection, if any, as ended for {@code reason}. */
    public void end(ConnectionRecord.EndReason reason) {
        if (current != null) {
            ConnectionAnalyzer c = current;
            ended = c.id();
            endedAt = c.closedAt() >= 0 ? c.closedAt() : c.lastTs();
            current = null;
            c.finish(reason);
        }
    }

    /** Emits the current connection at the end of the input. */
    public void finish() {
        if (attempt != null) {
            if (!attemptEmitted) {
                inflate(fa, false);
            } else if (owed) {
                letGo(fa);        // a tombstone never revived: its owed record, whole (it ends with the input)
            }
            attempt = null;
        }
        closed = null;
        if (current != null) {
            end(current.isClosed() ? ConnectionRecord.EndReason.CLOSED : ConnectionRecord.EndReason.END_OF_INPUT);
        }
    }
}
