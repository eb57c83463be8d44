package io.ackscope.spark.source;

import io.ackscope.tcp.FrameFilter;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;

/** Ships the read settings to the executors and opens one {@link PcapPartitionReader} per task. */
final class PcapReaderFactory implements PartitionReaderFactory {
    private static final long serialVersionUID = 1L;

    private final StructType required;
    private final Broadcast<SerializableConfiguration> conf;
    private final int payloadBytes;
    private final boolean httpPayloadOnly;
    private final boolean failOnDamage;
    private final boolean tcpOnly;
    private final SplitStatsAccumulator stats;   // null when nobody asked for split statistics
    private final FrameFilter filter;

    PcapReaderFactory(StructType required, Broadcast<SerializableConfiguration> conf, int payloadBytes,
                      boolean httpPayloadOnly, boolean failOnDamage, boolean tcpOnly, SplitStatsAccumulator stats,
                      FrameFilter filter) {
        if (payloadBytes < 0 || payloadBytes > 65535) {
            throw new IllegalArgumentException("payloadBytes must be 0..65535, not " + payloadBytes);
        }
        this.required = required;
        this.conf = conf;
        this.payloadBytes = payloadBytes;
        this.httpPayloadOnly = httpPayloadOnly;
        this.failOnDamage = failOnDamage;
        this.tcpOnly = tcpOnly;
        this.stats = stats;
        this.filter = filter;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        return new PcapPartitionReader((CapturePartition) partition, required, conf.value().value(), payloadBytes,
                httpPayloadOnly, failOnDamage, tcpOnly, stats, filter);
    }
}
