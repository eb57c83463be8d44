/**
 * Reading captures as a Spark table: the {@code pcap} data source ({@link io.ackscope.spark.source.PcapDataSource},
 * registered in {@code META-INF/services} so that {@code spark.read.format("pcap")} finds it) and the read planning
 * that {@code analyze} shares with it.
 *
 * <p><b>The data source</b> follows Spark's DataSource V2 chain: {@link io.ackscope.spark.source.PcapTable} (the
 * captures under the {@code path} options, read-only) gives a {@link io.ackscope.spark.source.PcapScanBuilder}
 * (column pruning and the one filter it can push), which gives a {@link io.ackscope.spark.source.PcapScan} (the
 * planned read), whose {@link io.ackscope.spark.source.PcapReaderFactory} opens one reader per task. The columns are
 * those of {@code tables}' schemas as Spark types ({@link io.ackscope.spark.source.SparkSchemas}).
 *
 * <p><b>Planning</b> ({@link io.ackscope.spark.source.CapturePlanner}): the inputs are listed
 * ({@code capture/Archive} over {@link io.ackscope.spark.source.HadoopArchiveStore}), large uncompressed files cut
 * into byte-range splits with exact first frame numbers ({@link io.ackscope.spark.source.SplitCounter}, started early
 * by {@link io.ackscope.spark.source.EarlyCount}), small ones packed into tasks; the result is a
 * {@link io.ackscope.spark.source.ReadPlan}: each {@link io.ackscope.spark.source.CaptureFile} with its
 * {@link io.ackscope.spark.source.FilePlan}, cut into {@link io.ackscope.spark.source.CaptureSplit}s and packed
 * into {@link io.ackscope.spark.source.CapturePartition}s (one per task).
 *
 * <p><b>Reading</b> ({@link io.ackscope.spark.source.PcapPartitionReader}): one reader and one
 * {@code PacketDecoder} per task, each split opened at its first record by
 * {@link io.ackscope.spark.source.SplitOpener} through {@link io.ackscope.spark.source.HadoopSeekableInput} (any
 * Hadoop filesystem), every frame counted in {@link io.ackscope.spark.source.SplitStats} (where each went:
 * {@link io.ackscope.spark.source.FrameAccounting}, whose identity holds by construction) and collected, once per
 * split even when a task runs twice, by {@link io.ackscope.spark.source.SplitStatsAccumulator}; each frame becomes
 * either a row of the {@code packets} columns ({@link io.ackscope.spark.source.PacketRowWriter}) or, for
 * {@code analyze}'s shuffle, a compact {@link io.ackscope.spark.source.SegmentRows} row.
 *
 * <p>The analyze pipeline ({@code io.ackscope.spark}) uses this package; this package does not use it
 * ({@code LayeringTest}). Uses {@code tables}, {@code tcp} (the engine's {@code Segment}), {@code decode} and
 * {@code capture}.
 */
package io.ackscope.spark.source;
