/**
 * The Spark side: the {@code pcap} data source (one row per frame, split reads of large captures with exact frame
 * numbers) and the {@code analyze} job (captures to Parquet tables).
 *
 * <p><b>Data flow of analyze</b> ({@link io.ackscope.spark.Analyze}): {@link io.ackscope.spark.CapturePlanner} lists
 * the inputs and plans splits; read tasks decode each split's TCP frames into compact rows
 * ({@link io.ackscope.spark.SegmentRows}) and count every frame ({@link io.ackscope.spark.SplitStats});
 * {@link io.ackscope.spark.SegmentShuffle} groups them by connection key, each group in file order; the TCP engine
 * runs per partition ({@link io.ackscope.spark.EngineTask}), makes its records into rows
 * ({@link io.ackscope.spark.EngineRows}) and writes the tables ({@link io.ackscope.spark.TableFiles});
 * {@link io.ackscope.spark.OutputDirectory} commits them. With two or more capture sources, a vantage pass between
 * the engine's two passes matches connections between sources ({@link io.ackscope.spark.VantagePlan}: each pair's
 * clock from all partitions), and pass 2 writes the peer columns and {@code one_way_delays}
 * ({@link io.ackscope.spark.VantageRows}, sums in {@link io.ackscope.spark.VantageAggregate}).
 *
 * <p><b>Tables.</b> Their schemas, the Parquet writer and the reader live in {@code tables}, which knows no Spark;
 * here are only the rows of each table ({@code EngineRows}, {@code CaptureFileRows}, {@code SourceRows}) and the
 * Spark schema of each ({@link io.ackscope.spark.SparkSchemas}).
 *
 * <p>Uses {@code vantage}, {@code tables}, {@code tcp}, {@code decode}, {@code capture} and {@code output}; nothing below knows
 * Spark.
 */
package io.ackscope.spark;
