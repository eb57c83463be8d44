package io.ackscope.load;

import io.ackscope.tables.LoadRequestsTable;
import io.ackscope.tables.ParquetTableWriter;
import io.ackscope.tables.RowBuffer;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.LocalOutputFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes the per-request rows of a load run to Parquet (table {@code load_requests},
 * {@link LoadRequestsTable}, documented in {@code docs/load_requests.md}) with the tables' own writer, the one the
 * analyze tables are written with. Uses parquet's {@link LocalOutputFile}, so writing a local file needs no Hadoop
 * file system. One reused row for all rows.
 */
public final class RequestParquet {

    private RequestParquet() {
    }

    /** Writes (or overwrites) {@code file} with every row of {@code result}; returns the number of rows. */
    public static long write(LoadResult result, Path file) throws IOException {
        if (!result.hasRows()) {
            throw new IllegalArgumentException("the run kept no per-request rows");
        }
        long offset = result.epochOffsetNanos();
        RowBuffer row = new RowBuffer(LoadRequestsTable.TABLE);
        long index = 0;
        try (ParquetTableWriter w = new ParquetTableWriter(LoadRequestsTable.TABLE, new LocalOutputFile(file),
                ParquetFileWriter.Mode.OVERWRITE, metadata(result), ParquetTableWriter.ROW_GROUP_BYTES)) {
            for (RequestLog log : result.logs()) {
                for (int i = 0; i < log.size(); i++) {
                    long intended = log.intendedStart(i);
                    long actual = log.actualStart(i);
                    long end = log.end(i);
                    LoadError error = log.error(i);
                    row.clear()
                            .setLong(0, index++)
                            .setInt(1, log.thread())
                            .setInt(2, log.connection(i))
                            .setInt(3, log.localPort(i))
                            .setInt(4, log.seqOnConnection(i))
                            .setTimestampNanos(5, intended + offset)
                            .setTimestampNanos(6, actual + offset)
                            .setTimestampNanos(7, end + offset)
                            .setLong(8, (end - actual) / 1000)
                            .setLong(9, (end - intended) / 1000)
                            .setInt(10, log.status(i))
                            .setLong(11, log.bytes(i));
                    if (error != null) {
                        row.setString(12, error.label());
                    }
                    w.write(row);
                }
            }
        }
        return index;
    }

    private static Map<String, String> metadata(LoadResult r) {
        LoadConfig c = r.config();
        Map<String, String> m = new LinkedHashMap<>();
        m.put("ackscope.table", "load_requests");
        m.put("ackscope.url", c.target().url());
        m.put("ackscope.threads", Integer.toString(c.threads()));
        m.put("ackscope.connections", Integer.toString(c.connections()));
        m.put("ackscope.duration_ns", Long.toString(c.durationNanos()));
        m.put("ackscope.warmup_ns", Long.toString(c.warmupNanos()));
        m.put("ackscope.rate", c.openLoop() ? Double.toString(c.rate()) : "closed-loop");
        m.put("ackscope.quickack", Boolean.toString(c.quickAck()));
        m.put("ackscope.nodelay", Boolean.toString(c.noDelay()));
        return m;
    }
}
