/**
 * The TCP analysis engine: connections ({@code tcp.stream}), Wireshark-compatible sequence analysis, RTT, ACK delay,
 * Nagle &times; delayed-ACK stalls, other latency causes and request/response exchanges.
 *
 * <p><b>Shape.</b> Input is a reusable {@link io.ackscope.tcp.Segment} (primitives plus a bounded payload prefix),
 * so frames can travel as rows and be rebuilt anywhere. Part (a), {@link io.ackscope.tcp.TupleTracker}, splits
 * one canonical 4-tuple's segments into connections; part (b), {@link io.ackscope.tcp.ConnectionAnalyzer},
 * analyses one connection, with {@code ConnectionClose} (how it ends) and {@code AckDelayTracker} (its ACK delays
 * and stalls) beside it. {@link io.ackscope.tcp.TcpEngine} runs both over a whole capture with a bounded flow
 * table. Results go to an {@link io.ackscope.tcp.AnalysisSink} as they are found; nothing is buffered beyond the
 * state of open connections. Latency causes found per connection (handshake retransmissions, loss recovery, zero
 * windows; server, network and queueing time of HTTP exchanges, {@link io.ackscope.tcp.ResponseTimeCauses}; a connection
 * per request) arrive as {@link io.ackscope.tcp.CauseEvent}s through {@code AnalysisSink.onCause}; their rules are in
 * docs/causes.md. {@link io.ackscope.tcp.EndpointAggregate} is the one per-endpoint aggregation of latency and
 * causes, per source and server endpoint, mergeable across tasks and runs, each connection's causes noted apart until
 * its record ({@link io.ackscope.tcp.ConnectionCauses}, also its rows of {@code connection_causes}); the rules of
 * {@link io.ackscope.tcp.CauseRanking} rank its causes by time lost. {@code analyze} makes {@code latency_summary}
 * and {@code findings} from it; {@code diagnose} reads its verdict, causes and latency from it too
 * ({@link io.ackscope.tcp.Diagnosis} feeds it per connection record as {@code analyze} does), with what only
 * {@code diagnose} shows kept beside it ({@link io.ackscope.tcp.DiagnoseExtras}) and the endpoint's numbers and
 * findings in words in {@link io.ackscope.tcp.EndpointDiagnosis}.
 *
 * <p><b>Contract for distributed runs.</b> Everything about a connection depends only on its 4-tuple's segments in
 * (file index, frame number) order. Grouping by 4-tuple, running one {@code TupleTracker} per group and
 * renumbering connections by (first file index, first frame number) gives the whole-file engine's results.
 *
 * <p><b>Continuing in a later run.</b> {@link io.ackscope.tcp.TcpEngine#hold} gives each 4-tuple still held as a
 * {@link io.ackscope.tcp.HeldTuple} (its canonical 4-tuple and its tracker's state as versioned bytes,
 * {@link io.ackscope.tcp.TrackerState}), and a new engine {@link io.ackscope.tcp.TcpEngine#resume}s them before its
 * first segment: the records given before the hold (less the provisional ones: those {@code finish()} gives after
 * it, and those of {@link io.ackscope.tcp.TcpEngine#revivable} attempts) and the later engine's records are exactly
 * one engine's over the whole input ({@code HoldResumeTest} checks it on every capture we have). Measured with
 * {@code bench/HoldBench.java} half-way through the bundled nginx and lab captures: about 2.1 KB per held connection
 * (2.5 KB for a long keep-alive one; 4.0 and 4.6 KB for the single long connections of two corpus captures), 11-17
 * &micro;s to hold and 18-32 &micro;s to resume one once warm (30-100 &micro;s in the first rounds).
 *
 * <p><b>Memory.</b> {@link io.ackscope.tcp.TcpEngine} holds one entry per 4-tuple it has not let go of, and sweeps
 * them by capture time ({@link io.ackscope.tcp.EngineConfig}). Measured with a heap histogram
 * ({@code bench/EngineHeap.java}): an unanswered attempt (the originator's SYNs only) is held packed
 * ({@link io.ackscope.tcp.SynAttempt}) at about 370 bytes with its 4-tuple key, map entry and sweep queue slot, 48 more
 * per retransmitted SYN; it is emitted after 60 s without a packet and then kept as a tombstone for 60 s more. The
 * analyzers of the latest 1,024 attempts per engine are kept beside their packed SYNs ({@link
 * io.ackscope.tcp.WarmAttempts}: at most about 1.5 MB), so that an answered handshake continues its analyzer. A
 * connection that got an answer is an analyzer: about 1.14 KB while it only handshakes (2.9 KB before analyzers
 * allocated their parts lazily), more as it holds unacknowledged segments (up to 10,000 per direction, like tshark)
 * and TCP timestamps (up to 64 per side). A closed connection is emitted 10 s after it closed and kept as a tombstone
 * (its id and initial sequence numbers) for 60 s more. A scan of R SYNs a second therefore holds about
 * R x 131 s x 370 bytes (5,000 a second: about 240 MB), whatever its length.
 *
 * <p><b>Units.</b> Times are epoch nanoseconds and durations nanoseconds everywhere in this package (fields and
 * components end in {@code Nanos}); -1 means absent. Consumers writing Parquet convert durations to microseconds
 * and timestamps to TIMESTAMP columns. Sequence numbers are unsigned 32-bit values in longs.
 *
 * <p><b>Around the engine.</b> {@link io.ackscope.tcp.FrameFilter} chooses the frames a run hands to the engine
 * ({@code analyze --since/--until/--server/--filter}; its time and endpoint parsers are {@code report}'s too);
 * {@link io.ackscope.tcp.ValueCounts} holds latency values exactly for nearest-rank percentiles (the tables,
 * {@code diagnose}).
 *
 * <p>No Spark here: the package runs and is tested in a plain JVM.
 */
package io.ackscope.tcp;
