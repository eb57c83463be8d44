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
 */
public final class TupleTracker {
    private final EngineConfig config;
    private final StreamCounter streams;
    private final AnalysisSink sink;
    private final boolean boundariesOnly;
    private final FrameAnalysis fa;
    private ConnectionAnalyzer current;

    public TupleTracker(EngineConfig config, StreamCounter streams, AnalysisSink sink) {
        this(config, streams, sink, false, new FrameAnalysis());
    }

    /**
     * @param boundariesOnly only find connections (see {@link TcpEngine#boundariesOnly})
     * @param fa             the per-frame result, shared by every tracker of one engine (it is filled and handed to
     *                       the sink one frame at a time)
     */
    TupleTracker(EngineConfig config, StreamCounter streams, AnalysisSink sink, boolean boundariesOnly,
                 FrameAnalysis fa) {
        this.config = config;
        this.streams = streams;
        this.sink = sink;
        this.boundariesOnly = boundariesOnly;
        this.fa = fa;
    }

    /** Analyses one segment of this 4-tuple. */
    public void accept(Segment s) {
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
            current = new ConnectionAnalyzer(new ConnectionId(streams.next(), s.fileIndex, s.frameNumber), s, sink,
                    boundariesOnly, fa);
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

    /** True when the current connection is over at capture time {@code now} (see {@link EngineConfig}). */
    boolean expiredAt(long now) {
        return current == null || config.expired(current, now);
    }

    /** Emits the current connection, if any, as ended for {@code reason}. */
    public void end(ConnectionRecord.EndReason reason) {
        if (current != null) {
            ConnectionAnalyzer c = current;
            current = null;
            c.finish(reason);
        }
    }

    /** Emits the current connection at the end of the input. */
    public void finish() {
        if (current != null) {
            end(current.isClosed() ? ConnectionRecord.EndReason.CLOSED : ConnectionRecord.EndReason.END_OF_INPUT);
        }
    }
}
