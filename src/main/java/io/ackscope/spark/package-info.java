/**
 * The {@code analyze} job: captures to Parquet tables. The {@code pcap} data source and the read planning it shares
 * with this job live in {@code io.ackscope.spark.source}, which this package uses and which does not use it.
 *
 * <p><b>Data flow of analyze</b> ({@link io.ackscope.spark.Analyze}): {@code source/CapturePlanner} lists the inputs
 * and plans splits; read tasks decode each split's TCP frames into compact rows ({@code source/SegmentRows}) and
 * count every frame ({@code source/SplitStats}); {@link io.ackscope.spark.SegmentShuffle} groups them by connection
 * key, each group in file order; {@link io.ackscope.spark.ArchiveNumbering} renumbers frames per source; the TCP
 * engine runs per partition ({@link io.ackscope.spark.EngineTask}), makes its records into rows
 * ({@link io.ackscope.spark.EngineRows}) and writes the tables ({@link io.ackscope.spark.TableFiles});
 * {@link io.ackscope.spark.OutputDirectory} commits them, file by file, into their partition directories
 * ({@link io.ackscope.spark.TableCommit}, {@code tables/HivePath}), with what they were made from
 * ({@link io.ackscope.spark.InputsState}; {@code --incremental} compares the inputs with it first:
 * {@link io.ackscope.spark.ArchiveInputs}, {@link io.ackscope.spark.Settle}; a run that only adds files reads those
 * alone and goes on from the state the run before kept: {@link io.ackscope.spark.Continuation}). With two or more
 * capture sources, a vantage pass between
 * the engine's two passes matches connections between sources ({@link io.ackscope.spark.VantagePlan}: each pair's
 * clock from all partitions; connections through a NAT, in different partitions, are paired by their ISNs and
 * regrouped by {@link io.ackscope.spark.NatPairs}), and pass 2 writes the peer columns and {@code one_way_delays}
 * ({@link io.ackscope.spark.VantageRows}, sums in {@link io.ackscope.spark.VantageAggregate}).
 *
 * <p><b>Tables.</b> Their schemas, the Parquet writer and the reader live in {@code tables}, which knows no Spark;
 * here are only the rows of each table ({@code EngineRows}, {@code CaptureFileRows}, {@code SourceRows}); the Spark
 * schema of each comes from {@code source/SparkSchemas}. The engine's events carry numbers; the {@code evidence}
 * column's words are made here ({@link io.ackscope.spark.EvidenceText}).
 *
 * <p><b>Watch</b> ({@link io.ackscope.spark.WatchLoop}): {@code analyze --watch} runs the job again, incrementally,
 * each time a Structured Streaming file source over the inputs ({@link io.ackscope.spark.WatchedInputs}) reports new
 * files, or files held back by the settle rule have been quiet for the settle period.
 *
 * <p>Uses {@code spark.source}, {@code vantage}, {@code tables}, {@code tcp}, {@code decode}, {@code capture},
 * {@code output} and {@code json}; nothing below knows Spark.
 */
package io.ackscope.spark;
