/**
 * The {@code analyze} job's driver: captures in, Parquet tables out. This package decides what runs when; the work
 * itself lives in its rooms, each a sub-package that uses only those below it (LayeringTest keeps the order):
 * <ol>
 *   <li>{@code spark.source}: the {@code pcap} data source and the read planning;</li>
 *   <li>{@code spark.commit}: the output directory and its commit protocol; {@code spark.views}: finished outputs as
 *       SQL views, for {@code sql} and {@code export};</li>
 *   <li>{@code spark.engine}: the shuffle, the numbering and the per-partition task (the TCP engine, two-source
 *       matching, the table rows); {@code spark.watch}: {@code analyze --watch};</li>
 *   <li>{@code spark.carry}: what an incremental run takes from the output it adds to and leaves for the next;</li>
 *   <li>{@code spark}: the driver, here.</li>
 * </ol>
 *
 * <p><b>Data flow of one run</b> ({@link io.ackscope.spark.Analyze}): the inputs are listed and the read planned
 * ({@code carry/ArchiveInputs}, {@code source/CapturePlanner}); read tasks decode each split's TCP frames into compact
 * rows and count every frame ({@code source/SegmentRows}, {@code source/SplitStats}); {@code engine/SegmentShuffle}
 * groups them by connection key, each group in file order; {@code engine/ArchiveNumbering} renumbers frames per
 * source; {@link io.ackscope.spark.EnginePasses} runs the engine over the shuffle, in one pass or two (and, with two
 * or more capture sources, the vantage pass between them); {@link io.ackscope.spark.DriverTables} makes the tables the driver
 * owns; {@code commit/TableCommit} stages every table and {@code commit/OutputDirectory} commits the output, with the
 * record of its inputs ({@code carry/InputsState}). An incremental run that only adds files reads those alone and goes
 * on from the state the run before kept ({@code carry/Continuation}).
 *
 * <ul>
 *   <li>{@link io.ackscope.spark.Analyze}: one run of {@code analyze}, from its options to the committed output and
 *       its summary.</li>
 *   <li>{@link io.ackscope.spark.RunSummary}: what a run wrote (files, frames, connections, rows per table,
 *       phase times), built by name, printed as the summary and kept in the output's marker.</li>
 *   <li>{@link io.ackscope.spark.EnginePasses}: the Spark jobs of the engine's passes over the shuffled frames, and
 *       the commit of the tables their tasks wrote.</li>
 *   <li>{@link io.ackscope.spark.DriverTables}: the tables made on the driver once the tasks are done
 *       ({@code latency_summary}, {@code findings}, the pair tables, {@code capture_files}, {@code sources}) and the
 *       report of the staged output.</li>
 *   <li>{@link io.ackscope.spark.PacketsTable}: the {@code packets} table of {@code analyze --packets}, written by
 *       Spark from the {@code pcap} source.</li>
 *   <li>{@link io.ackscope.spark.ProgressReporter}: console progress of a run: files and bytes read, rate and ETA,
 *       then the running stage's tasks.</li>
 *   <li>{@link io.ackscope.spark.StageTimes}: where a run spends its task time, per phase.</li>
 *   <li>{@link io.ackscope.spark.HeapUse}: what the heap holds for the run in progress (carried open connections,
 *       files read), for the line a command prints when it runs out.</li>
 * </ul>
 *
 * <p>Uses its rooms, {@code vantage}, {@code tables}, {@code tcp}, {@code decode}, {@code capture}, {@code output} and
 * {@code json}; nothing below knows Spark.
 */
package io.ackscope.spark;
