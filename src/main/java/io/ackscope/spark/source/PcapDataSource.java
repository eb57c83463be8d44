package io.ackscope.spark.source;

import io.ackscope.tables.PacketSchema;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.util.Map;

/**
 * Spark data source {@code pcap}: {@code spark.read.format("pcap").load(paths)} gives one row per frame of every
 * capture under the paths (files, directories, globs, on any Hadoop filesystem; pcap or pcapng, plain or
 * gzip/zstd/bzip2-compressed), with the schema of {@link PacketSchema#TABLE}.
 *
 * <p>Options:
 * <ul>
 *   <li>{@code payloadBytes} (default 128): how many payload bytes the {@code payload} column keeps;</li>
 *   <li>{@code payload} (default {@code all}): {@code http} keeps payload bytes only when they start like an
 *       HTTP/1.x request or status line;</li>
 *   <li>{@code failOnDamage} (default false): a damaged file fails the query instead of ending that file's rows
 *       at the damage (which is logged);</li>
 *   <li>{@code since}, {@code until}, {@code server} (endpoints separated by commas), {@code filter}: only the
 *       frames {@code analyze}'s options of those names keep ({@link io.ackscope.tcp.FrameFilter});</li>
 *   <li>any Hadoop configuration key ({@code fs.s3a.endpoint}, ...), applied to this read only.</li>
 * </ul>
 * Splits follow {@code spark.sql.files.maxPartitionBytes} and {@code spark.sql.files.openCostInBytes} as for
 * Spark's own file sources; see {@link CapturePlanner}. {@code frame} is exact also for split files: when a
 * file is split, planning runs a Spark job that walks each split's record headers once (nothing is decoded) to
 * count its frames, and gives each split its first frame number; the same pass finds files that must be read whole
 * after all (a split boundary the locator got wrong, a pcapng section or interface declared after the first
 * packet) and damage, past which a whole-file read never gets (later splits are dropped). So the rows of a split
 * read are exactly those of a whole-file read.
 */
public final class PcapDataSource implements TableProvider, DataSourceRegister {

    @Override
    public String shortName() {
        return "pcap";
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        return schema(options);
    }

    /** The frame columns ({@code analyze} reads the same splits into {@link SegmentRows} instead). */
    static StructType schema(java.util.Map<String, String> options) {
        return SparkSchemas.of(PacketSchema.TABLE);
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        if (schema != null && !schema.equals(schema(new CaseInsensitiveStringMap(properties)))) {
            throw new IllegalArgumentException("the pcap source has a fixed schema; select columns instead of "
                    + "giving a schema");
        }
        return new PcapTable(new CaseInsensitiveStringMap(properties));
    }
}
