package io.ackscope.spark.engine;

import org.apache.spark.serializer.SerializationStream;
import org.apache.spark.serializer.SerializerInstance;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection$;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.execution.UnsafeRowSerializer;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import scala.Tuple2;
import scala.collection.Iterator;
import scala.reflect.ClassTag$;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The analyze shuffle's row reader reads what Spark's own row writer wrote, row for row, however the block stream
 * hands out its bytes, and refuses a stream cut inside a row.
 */
class SegmentRowSerializerTest {
    private static final StructType SCHEMA = new StructType().add("n", DataTypes.LongType)
            .add("payload", DataTypes.BinaryType);

    /** Rows of growing payloads, one of them larger than the reader's buffer. */
    private static List<UnsafeRow> rows(Random rnd) {
        UnsafeProjection project = UnsafeProjection$.MODULE$.create(SCHEMA);
        List<UnsafeRow> out = new ArrayList<>();
        int[] sizes = {0, 1, 7, 8, 100, 1500, 1024, 1025, 3 * SegmentRowSerializer.BUFFER + 5, 3, 65_535, 0, 40};
        for (int i = 0; i < sizes.length; i++) {
            byte[] p = new byte[sizes[i]];
            rnd.nextBytes(p);
            out.add(project.apply(new GenericInternalRow(new Object[]{(long) i * 1_000_003L, p})).copy());
        }
        return out;
    }

    /** The stream Spark's own serializer writes for {@code rows}, keyed by partition as the shuffle writes them. */
    private static byte[] written(List<UnsafeRow> rows) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SerializationStream out = new UnsafeRowSerializer(SCHEMA.size(), null).newInstance().serializeStream(bytes);
        for (UnsafeRow r : rows) {
            out.writeKey(3, ClassTag$.MODULE$.Int());
            out.writeValue(r, ClassTag$.MODULE$.apply(InternalRow.class));
        }
        out.close();
        return bytes.toByteArray();
    }

    /** A stream that gives at most a random 1-300 bytes per read. */
    private static InputStream trickle(byte[] b, Random rnd) {
        return new ByteArrayInputStream(b) {
            @Override
            public synchronized int read(byte[] dst, int off, int len) {
                return super.read(dst, off, Math.min(len, 1 + rnd.nextInt(300)));
            }
        };
    }

    private static List<byte[]> read(InputStream in) {
        SerializerInstance reader = new SegmentRowSerializer(SCHEMA.size()).newInstance();
        Iterator<Tuple2<Object, Object>> it = reader.deserializeStream(in).asKeyValueIterator();
        List<byte[]> out = new ArrayList<>();
        while (it.hasNext()) {
            Tuple2<Object, Object> kv = it.next();
            assertEquals(0, kv._1());
            out.add(((UnsafeRow) kv._2()).copy().getBytes());   // the reader reuses its row and buffer
        }
        return out;
    }

    @Test
    void readsEveryRowSparksWriterWrote() {
        Random rnd = new Random(7);
        List<UnsafeRow> rows = rows(rnd);
        byte[] stream = written(rows);
        for (InputStream in : List.of(new ByteArrayInputStream(stream), trickle(stream, rnd))) {
            List<byte[]> got = read(in);
            assertEquals(rows.size(), got.size());
            for (int i = 0; i < rows.size(); i++) {
                assertArrayEquals(rows.get(i).getBytes(), got.get(i), "row " + i);
                UnsafeRow r = new UnsafeRow(SCHEMA.size());
                r.pointTo(got.get(i), got.get(i).length);
                assertEquals(i * 1_000_003L, r.getLong(0), "row " + i);
            }
        }
    }

    @Test
    void anEmptyStreamHasNoRows() {
        assertTrue(read(new ByteArrayInputStream(new byte[0])).isEmpty());
    }

    @Test
    void closesTheBlockStreamAtItsEnd() {
        boolean[] closed = {false};
        byte[] stream = written(rows(new Random(1)).subList(0, 3));
        List<byte[]> got = read(new ByteArrayInputStream(stream) {
            @Override
            public void close() {
                closed[0] = true;
            }
        });
        assertEquals(3, got.size());
        assertTrue(closed[0]);
    }

    @Test
    void aStreamCutInsideARowOrItsLengthIsAnError() {
        byte[] stream = written(rows(new Random(3)).subList(0, 6));
        int[] cuts = {2, 4 + 10, stream.length - 1};
        for (int cut : cuts) {
            byte[] part = Arrays.copyOf(stream, cut);
            UncheckedIOException e = assertThrows(UncheckedIOException.class,
                    () -> read(new ByteArrayInputStream(part)), "cut at " + cut);
            assertInstanceOf(EOFException.class, e.getCause(), "cut at " + cut);
            assertFalse(e.getCause().getMessage().isEmpty());
        }
    }
}
