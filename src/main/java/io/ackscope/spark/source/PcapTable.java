package io.ackscope.spark.source;

import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.util.EnumSet;
import java.util.Set;

/** The captures under the {@code path}/{@code paths} options, as a read-only table of frames. */
final class PcapTable implements SupportsRead {
    private final CaseInsensitiveStringMap options;

    PcapTable(CaseInsensitiveStringMap options) {
        this.options = options;
    }

    @Override
    public String name() {
        return "pcap " + String.join(",", CapturePlanner.paths(options));
    }

    @Override
    public StructType schema() {
        return PcapDataSource.schema(options);
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap scanOptions) {
        CaseInsensitiveStringMap merged = options;
        if (!scanOptions.isEmpty()) {
            java.util.Map<String, String> m = new java.util.HashMap<>(options);
            m.putAll(scanOptions);
            merged = new CaseInsensitiveStringMap(m);
        }
        return new PcapScanBuilder(merged);
    }
}
