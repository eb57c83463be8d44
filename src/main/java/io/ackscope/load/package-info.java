/**
 * HTTP/1.1 load like wrk and wrk2 ({@link io.ackscope.load.LoadRun}: closed loop, or an open loop at a fixed rate
 * with latency measured from the intended send time), and a target server whose write pattern is explicit
 * ({@link io.ackscope.load.TargetServer}), to reproduce and rule out the Nagle &times; delayed-ACK stall.
 *
 * <p>Every dimension of a run is bounded ({@link io.ackscope.load.LoadConfig}); errors are counted by kind
 * ({@link io.ackscope.load.LoadError}), not thrown; latencies go to HdrHistograms and, per request, to
 * {@link io.ackscope.load.RequestLog} (Parquet with {@code --out}, written by {@link io.ackscope.load.RequestParquet}
 * with the {@code tables} writer that writes analyze's tables; no other Parquet code).
 */
package io.ackscope.load;
