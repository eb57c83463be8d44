package io.ackscope.load;

import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes the per-request rows of a load run to Parquet (table {@code load_requests}, documented in
 * {@code docs/load_requests.md}). Uses parquet's {@link LocalOutputFile}, so writing a local file needs no Hadoop file
 * system. One reused Avro record for all rows.
 */
public final class RequestParquet {

    /** Avro schema of one row; the column documentation lives in {@code docs/load_requests.md}. */
    public static final Schema SCHEMA = SchemaBuilder.record("load_requests").namespace("io.ackscope.load")
            .fields()
            .requiredLong("request_index")
            .requiredInt("thread")
            .requiredInt("connection")
            .requiredInt("local_port")
            .requiredInt("seq_on_connection")
            .requiredLong("intended_start_ns")
            .requiredLong("actual_start_ns")
            .requiredLong("end_ns")
            .requiredLong("latency_us")
            .requiredLong("corrected_latency_us")
            .requiredInt("status")
            .requiredLong("bytes")
            .optionalString("error")
            .endRecord();

    private RequestParquet() {
    }

    /** Writes (or overwrites) {@code file} with every row of {@code result}; returns the number of rows. */
    public static long write(LoadResult result, Path file) throws IOException {
        if (!result.hasRows()) {
            throw new IllegalArgumentException("the run kept no per-request rows");
        }
        long offset = result.epochOffsetNanos();
        GenericData.Record row = new GenericData.Record(SCHEMA);
        long index = 0;
        try (ParquetWriter<GenericRecord> w = AvroParquetWriter.<GenericRecord>builder(new LocalOutputFile(file))
                .withSchema(SCHEMA)
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                .withExtraMetaData(metadata(result))
                .build()) {
            for (RequestLog log : result.logs()) {
                for (int i = 0; i < log.size(); i++) {
                    long intended = log.intendedStart(i);
                    long actual = log.actualStart(i);
                    long end = log.end(i);
                    LoadError error = log.error(i);
                    row.put("request_index", index++);
                    row.put("thread", log.thread());
                    row.put("connection", log.connection(i));
                    row.put("local_port", log.localPort(i));
                    row.put("seq_on_connection", log.seqOnConnection(i));
                    row.put("intended_start_ns", intended + offset);
                    row.put("actual_start_ns", actual + offset);
                    row.put("end_ns", end + offset);
                    row.put("latency_us", (end - actual) / 1000);
                    row.put("corrected_latency_us", (end - intended) / 1000);
                    row.put("status", log.status(i));
                    row.put("bytes", log.bytes(i));
                    row.put("error", error == null ? null : error.label());
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
