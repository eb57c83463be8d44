package io.ackscope.tables;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Files written by parquet-mr's own writer with each codec a table may come with, read back through
 * {@link ParquetFiles#open} ({@link PageDecompressors}): every row as written, over several pages and a dictionary
 * page per column chunk, whether the codec is decompressed by snappy-java (SNAPPY), passed through (UNCOMPRESSED) or
 * handed to parquet-mr's factory (GZIP).
 */
class PageDecompressorsTest {
    @TempDir
    Path tmp;

    private static final MessageType SCHEMA = MessageTypeParser.parseMessageType(
            "message t { required int64 n; optional binary s (STRING); }");
    private static final int ROWS = 50_000;

    @ParameterizedTest
    @EnumSource(value = CompressionCodecName.class, names = {"SNAPPY", "UNCOMPRESSED", "GZIP"})
    void everyRowReadsBackAsWritten(CompressionCodecName codec) throws IOException {
        Path file = tmp.resolve("t." + codec + ".parquet");
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalOutputFile(file)).withType(SCHEMA)
                .withConf(new Configuration(false)).withCompressionCodec(codec).withPageRowCountLimit(7_000)
                .withWriteMode(ParquetFileWriter.Mode.CREATE).build()) {
            for (int i = 0; i < ROWS; i++) {
                Group g = groups.newGroup().append("n", value(i));
                if (i % 9 != 0) {
                    g.append("s", text(i));
                }
                w.write(g);
            }
        }
        List<Group> rows = new ArrayList<>();
        try (ParquetFileReader r = ParquetFiles.open(new LocalInputFile(file))) {
            assertEquals(codec, r.getRowGroups().get(0).getColumns().get(0).getCodec());
            PageReadStore pages;
            while ((pages = r.readNextRowGroup()) != null) {
                RecordReader<Group> records = new ColumnIOFactory().getColumnIO(SCHEMA)
                        .getRecordReader(pages, new GroupRecordConverter(SCHEMA));
                for (long i = 0; i < pages.getRowCount(); i++) {
                    rows.add(records.read());
                }
            }
        }
        assertEquals(ROWS, rows.size());
        for (int i = 0; i < ROWS; i++) {
            Group g = rows.get(i);
            assertEquals(value(i), g.getLong("n", 0), "row " + i);
            assertEquals(i % 9 != 0 ? 1 : 0, g.getFieldRepetitionCount("s"), "row " + i);
            if (i % 9 != 0) {
                assertEquals(text(i), g.getString("s", 0), "row " + i);
            }
        }
    }

    private static long value(int i) {
        return (long) i * 2_654_435_761L;
    }

    /** Few distinct strings (a dictionary page) in runs, with non-ASCII text among them. */
    private static String text(int i) {
        return List.of("GET", "POST", "käse", "/index.html").get((i / 13) % 4);
    }
}
