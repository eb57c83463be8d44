package io.ackscope.spark.source;

import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Column pruning, and one filter the reader can apply before building a row: {@code tcp_flags IS NOT NULL}
 * ("TCP frames only"). Spark still evaluates every filter after the scan, so pushing is only an optimisation.
 */
final class PcapScanBuilder implements ScanBuilder, SupportsPushDownRequiredColumns, SupportsPushDownFilters {
    private final CaseInsensitiveStringMap options;
    private StructType required;
    private Filter[] pushed = new Filter[0];

    PcapScanBuilder(CaseInsensitiveStringMap options) {
        this.options = options;
        this.required = PcapDataSource.schema(options);
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        this.required = requiredSchema;
    }

    @Override
    public Filter[] pushFilters(Filter[] filters) {
        for (Filter f : filters) {
            if (f instanceof IsNotNull n && n.attribute().equals("tcp_flags")) {
                pushed = new Filter[]{f};
            }
        }
        return filters;
    }

    @Override
    public Filter[] pushedFilters() {
        return pushed.clone();
    }

    @Override
    public Scan build() {
        return new PcapScan(options, required, pushed.length > 0);
    }
}
