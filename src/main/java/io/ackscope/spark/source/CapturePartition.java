package io.ackscope.spark.source;

import org.apache.spark.sql.connector.read.InputPartition;

import java.util.List;

/** The splits one task reads, one after the other (small files are packed together like Spark's file sources do). */
public record CapturePartition(List<CaptureSplit> splits) implements InputPartition {
    @Override
    public String[] preferredLocations() {
        return splits.isEmpty() ? new String[0] : splits.get(0).file().hosts();
    }
}
