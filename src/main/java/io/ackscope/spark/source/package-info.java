/**
 * Reading captures as a Spark table: the {@code pcap} data source ({@link io.ackscope.spark.source.PcapDataSource},
 * registered in {@code META-INF/services} so that {@code spark.read.format("pcap")} finds it) and the read planning
 * that {@code analyze} shares with it.
 *
 * <p><b>Planning</b> ({@link io.ackscope.spark.source.CapturePlanner}): the inputs are listed
 * ({@code capture/Archive} over {@link io.ackscope.spark.source.HadoopArchiveStore}), large uncompressed files cut
 * into byte-range splits with exact first frame numbers ({@link io.ackscope.spark.source.SplitCounter}, started early
 * by {@link io.ackscope.spark.source.EarlyCount}), small ones packed into tasks; the result is a
 * {@link io.ackscope.spark.source.ReadPlan}.
 *
 * <p><b>Reading</b> ({@link io.ackscope.spark.source.PcapPartitionReader}): one reader and one
 * {@code PacketDecoder} per task, every frame counted in {@link io.ackscope.spark.source.SplitStats}; each frame
 * becomes either a row of the {@code packets} columns ({@link io.ackscope.spark.source.PacketRowWriter}) or, for
 * {@code analyze}'s shuffle, a compact {@link io.ackscope.spark.source.SegmentRows} row.
 *
 * <p>The analyze pipeline ({@code io.ackscope.spark}) uses this package; this package does not use it
 * ({@code LayeringTest}). Uses {@code tables}, {@code tcp} (the engine's {@code Segment}), {@code decode} and
 * {@code capture}.
 */
package io.ackscope.spark.source;
