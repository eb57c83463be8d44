/**
 * The Spark side: the {@code pcap} data source (one row per frame, split reads of large captures with exact frame
 * numbers) and the {@code analyze} job (captures to Parquet tables).
 *
 * <p><b>Data flow of analyze</b> ({@link io.ackscope.spark.Analyze}): {@link io.ackscope.spark.CapturePlanner} lists
 * the inputs and plans splits; read tasks decode each split's TCP frames into compact rows
 * ({@link io.ackscope.spark.SegmentRows}) and count every frame ({@link io.ackscope.spark.SplitStats});
 * {@link io.ackscope.spark.SegmentShuffle} groups them by connection key, each group in file order; the TCP engine
 * runs per partition ({@link io.ackscope.spark.EngineTask}) and writes the tables with
 * {@link io.ackscope.spark.ParquetTableWriter}; {@link io.ackscope.spark.OutputDirectory} commits them.
 *
 * <p><b>Tables.</b> Every table is one {@link io.ackscope.spark.TableSchema}: its Spark schema, Parquet schema and
 * its section of {@code docs/schema.md} are derived from that definition, so they cannot drift apart.
 *
 * <p>Uses {@code tcp}, {@code decode} and {@code capture}; nothing below knows Spark.
 */
package io.ackscope.spark;
