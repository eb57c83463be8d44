/**
 * The engine of {@code analyze} in Spark: how the read frames are shuffled and numbered, what one task does with its
 * shuffle partition (the TCP engine in one pass or two, and with two or more capture sources the matching between them),
 * and how the engine's records become table rows. Everything here runs per partition or is handed to a partition; the
 * driver ({@code spark}) decides when.
 *
 * <p>The task and its sink:
 * <ul>
 *   <li>{@link io.ackscope.spark.engine.EngineTask}: one shuffle partition through the TCP engine, source by source:
 *       in a single pass it writes every table with the connections' first-appearance keys as their stream
 *       ({@link io.ackscope.spark.engine.StreamNumbers} maps them afterwards); in two, pass 1 collects the keys and
 *       pass 2 writes every table with global stream numbers.</li>
 *   <li>{@link io.ackscope.spark.engine.TableSink}: the tables of one engine task, built complete by its
 *       constructor: one writer per table, the aggregates, the two-source matching's rows, and in a carrying run the
 *       hooks that resume and hold open connections; the task asks it for each source's engine and its result.</li>
 * </ul>
 * Shuffle and numbering:
 * <ul>
 *   <li>{@link io.ackscope.spark.engine.SegmentShuffle}: the frames grouped by connection key, each group in file
 *       order without a sort.</li>
 *   <li>{@link io.ackscope.spark.engine.ArchiveNumbering}: each file's source, its frames' numbers in the source, its
 *       duplicates, and where each source's connections start in the global ranking.</li>
 * </ul>
 * Rows:
 * <ul>
 *   <li>{@link io.ackscope.spark.engine.EngineRows}: each record of the TCP engine as a row of its table.</li>
 *   <li>{@link io.ackscope.spark.engine.EvidenceText}: the words of the {@code evidence} column, from the numbers the
 *       engine's events carry.</li>
 *   <li>{@link io.ackscope.spark.engine.CaptureFileRows}: a capture file's row of {@code capture_files}.</li>
 *   <li>{@link io.ackscope.spark.engine.SourceRows}: a capture source's row of {@code sources}.</li>
 *   <li>{@link io.ackscope.spark.engine.EndpointRows}: the rows of {@code latency_summary} and {@code findings},
 *       from the tasks' per-endpoint aggregates ({@link io.ackscope.tcp.EndpointAggregate}) merged on the
 *       driver.</li>
 * </ul>
 * Held state (what a carrying run's tasks keep of open connections):
 * <ul>
 *   <li>{@link io.ackscope.spark.engine.EngineCarry}: what the tasks ask of a carried run at each source's start
 *       and end, in both passes.</li>
 *   <li>{@link io.ackscope.spark.engine.HeldState}: the held 4-tuples of one task, source and pass, as a file.</li>
 *   <li>{@link io.ackscope.spark.engine.OpenValues}: the latency values kept for each open connection until its
 *       record names its server endpoint.</li>
 * </ul>
 * Two-source matching (runs inside the task's passes: the same partition holds a 4-tuple's frames of every source):
 * <ul>
 *   <li>{@link io.ackscope.spark.engine.VantagePlan}: which connections two sources both saw, and each pair's clock,
 *       made between the two passes.</li>
 *   <li>{@link io.ackscope.spark.engine.PartitionPoints}: one partition's segments per source, held only for the
 *       connections that can be matched.</li>
 *   <li>{@link io.ackscope.spark.engine.SharedTuples}: the 4-tuples of one partition that two or more sources
 *       saw.</li>
 *   <li>{@link io.ackscope.spark.engine.NatPairs}: connections two sources saw with different 4-tuples (a NAT
 *       between them), regrouped for matching.</li>
 *   <li>{@link io.ackscope.spark.engine.VantageRows}: pass 2's {@code one_way_delays} rows of one partition.</li>
 *   <li>{@link io.ackscope.spark.engine.VantageAggregate}: the {@code source_pairs} and {@code host_times} sums,
 *       mergeable across tasks.</li>
 * </ul>
 *
 * <p>Uses {@code spark.commit} (task output), {@code spark.source} (the segment rows), {@code vantage},
 * {@code tables}, {@code tcp}, {@code decode} and {@code capture}.
 */
package io.ackscope.spark.engine;
