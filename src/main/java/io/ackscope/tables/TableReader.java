package io.ackscope.tables;

import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the tables of an {@code analyze} output directory ({@code DIR/NAME/**}{@code /*.parquet}, flat or
 * Hive-partitioned: {@link #parts}) column by column, by the
 * {@link Column}s of their {@link TableSchema}, without Spark: the report must start in a fraction of a second and
 * must not depend on the Spark package. Only the requested columns are decoded (Parquet projection), one row group at a time, into primitive
 * arrays ({@link Batch}); nothing is allocated per row except the strings of string columns, and repeated string
 * values share one instance. Each column chunk is decoded by {@link ColumnChunks}: flat INT32, INT64 and string
 * chunks from their pages, the rest through parquet-mr's column readers.
 *
 * <p>Scalar columns of type BOOLEAN, INT32, INT64 (also TIMESTAMP) read as {@code long}; BINARY (UTF-8) as
 * {@code String}. Lists of INT32/INT64 read as {@code long[]}; a map of string to INT64 as {@code Map}. A missing
 * table or column is an {@link IOException} that names it.
 */
public final class TableReader {
    private TableReader() {
    }

    /** Receives a table one row group at a time. */
    public interface BatchConsumer {
        void accept(Batch batch) throws IOException;
    }

    /** True when {@code dir/table} holds at least one Parquet file. */
    public static boolean exists(Path dir, TableSchema table) throws IOException {
        return exists(TableFiles.whole(dir), table);
    }

    /** True when {@code table} has at least one part file that {@code files} reads. */
    public static boolean exists(TableFiles files, TableSchema table) throws IOException {
        return !files.parts(table).isEmpty();
    }

    /** Rows of {@code dir/table}, from its files' footers (0 when it has none). */
    public static long rows(Path dir, TableSchema table) throws IOException {
        return rows(TableFiles.whole(dir), table);
    }

    /** The number of rows of {@code table} in the part files {@code files} reads, from their footers. */
    public static long rows(TableFiles files, TableSchema table) throws IOException {
        long n = 0;
        for (Path f : files.parts(table)) {
            try (ParquetFileReader r = openPart(f)) {
                n += r.getRecordCount();
            }
        }
        return n;
    }

    /**
     * Reads {@code columns} of {@code dir/table}, one {@link Batch} per row group, in file and row-group order
     * (see {@link #open}).
     */
    public static void scan(Path dir, TableSchema table, List<Column> columns, BatchConsumer consumer)
            throws IOException {
        scan(dir, table, columns, List.of(), consumer);
    }

    /**
     * As {@link #scan(Path, TableSchema, List, BatchConsumer)}, also reading those of {@code optional} that a part file
     * has (older outputs may lack them; {@link Batch#has} says which a batch holds).
     */
    public static void scan(Path dir, TableSchema table, List<Column> columns, List<Column> optional,
                            BatchConsumer consumer) throws IOException {
        scan(TableFiles.whole(dir), table, columns, optional, consumer);
    }

    /** As {@link #scan(Path, TableSchema, List, BatchConsumer)}, over the part files {@code files} reads. */
    public static void scan(TableFiles files, TableSchema table, List<Column> columns, BatchConsumer consumer)
            throws IOException {
        scan(files, table, columns, List.of(), consumer);
    }

    /** As {@link #scan(Path, TableSchema, List, List, BatchConsumer)}, over the part files {@code files} reads. */
    public static void scan(TableFiles files, TableSchema table, List<Column> columns, List<Column> optional,
                            BatchConsumer consumer) throws IOException {
        try (Scan s = open(files, table, columns, optional, true)) {
            s.forEach(consumer);
        }
    }

    /**
     * As {@link #scan(Path, TableSchema, List, List, BatchConsumer)}, over only the part files {@code read} accepts
     * (an output's manifest, so that a file put into a table's directory by anything but a commit is not read);
     * nothing when it accepts none.
     */
    public static void scan(Path dir, TableSchema table, java.util.function.Predicate<Path> read, List<Column> columns,
                            List<Column> optional, BatchConsumer consumer) throws IOException {
        List<Path> files = parts(dir.resolve(table.name())).stream().filter(read).toList();
        if (files.isEmpty()) {
            return;
        }
        try (Scan s = new Scan(table.name(), files, names(columns), names(optional), true)) {
            s.forEach(consumer);
        }
    }

    /**
     * Starts reading {@code columns} of {@code dir/table}: decoding runs on a thread of its own from now on, at most
     * {@link #AHEAD} row groups ahead of {@link Scan#forEach}, so a caller can open the scans of several tables
     * at once and consume them one after the other, each decoding while the ones before it are consumed (the
     * report reads millions of rows, and consuming is lighter than decoding). Memory: at most {@code AHEAD} + 1
     * decoded row groups per open scan.
     */
    public static Scan open(Path dir, TableSchema table, List<Column> columns) throws IOException {
        return open(dir, table, columns, List.of(), true);
    }

    /**
     * As {@link #open(Path, TableSchema, List)}, also reading those of {@code optional} that a part file has;
     * {@code pageDecoding} false reads every column with parquet-mr's readers.
     */
    public static Scan open(Path dir, TableSchema table, List<Column> columns, List<Column> optional,
                            boolean pageDecoding) throws IOException {
        return open(TableFiles.whole(dir), table, columns, optional, pageDecoding);
    }

    /** As {@link #open(Path, TableSchema, List, List, boolean)}, over the part files {@code files} reads. */
    public static Scan open(TableFiles files, TableSchema table, List<Column> columns, List<Column> optional,
                            boolean pageDecoding) throws IOException {
        List<Path> parts = files.parts(table);
        if (parts.isEmpty()) {
            throw new IOException("table " + table.name() + " not found: no Parquet files in "
                    + files.dir().resolve(table.name()) + (files.listed() == null ? "" : " that its manifest lists"));
        }
        return new Scan(table.name(), parts, names(columns), names(optional), pageDecoding);
    }

    private static List<String> names(List<Column> columns) {
        return columns.stream().map(Column::name).toList();
    }

    /** Decoded row groups waiting for {@link Scan#forEach}, per scan. */
    public static final int AHEAD = 2;

    /** One table being decoded; {@link #close} stops the decoder if the rows are not wanted after all. */
    public static final class Scan implements AutoCloseable {
        private static final Object END = new Object();
        private final String table;
        private final java.util.concurrent.BlockingQueue<Object> queue =
                new java.util.concurrent.ArrayBlockingQueue<>(AHEAD);
        private final Thread decoder;

        private Scan(String table, List<Path> files, List<String> columns, List<String> optional,
                     boolean pageDecoding) {
            this.table = table;
            decoder = new Thread(() -> {
                try {
                    Object last = END;
                    try {
                        decode(files, table, columns, optional, pageDecoding, queue::put);
                    } catch (IOException | RuntimeException | Error e) {
                        last = e;          // an Error too (out of memory): the consumer must not wait forever
                    }
                    queue.put(last);
                } catch (InterruptedException e) {
                    // closed early (the consumer failed, or another table did): nobody reads the rest
                }
            }, "ackscope-table-reader-" + table);
            decoder.setDaemon(true);
            decoder.start();
        }

        /** Hands every row group to {@code consumer}, in file and row-group order. */
        public void forEach(BatchConsumer consumer) throws IOException {
            while (true) {
                Object o;
                try {
                    o = queue.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted while reading table " + table);
                }
                if (o == END) {
                    return;
                }
                if (o instanceof IOException e) {
                    throw new IOException(e.getMessage(), e);
                }
                if (o instanceof RuntimeException || o instanceof Error) {
                    throw new IOException("reading table " + table + ": " + o, (Throwable) o);
                }
                consumer.accept((Batch) o);
            }
        }

        @Override
        public void close() {
            decoder.interrupt();
        }
    }

    private interface Sink {
        void put(Batch b) throws InterruptedException;
    }

    private static void decode(List<Path> files, String table, List<String> required, List<String> optional,
                               boolean pageDecoding, Sink sink) throws IOException, InterruptedException {
        Map<Binary, String> strings = new HashMap<>();
        Map<String, String> pageStrings = new HashMap<>();
        for (Path f : files) {
            try {
                decodePart(f, table, required, optional, pageDecoding, sink, strings, pageStrings);
            } catch (IOException | RuntimeException e) {
                String m = String.valueOf(e.getMessage());
                // Parquet's own messages rarely name the file: one line that does, for a damaged or foreign file
                throw new IOException(m.contains(f.toString()) ? m
                        : f + ": damaged Parquet file (table " + table + "): " + m, e);
            }
        }
    }

    private static void decodePart(Path f, String table, List<String> required, List<String> optional,
                                   boolean pageDecoding, Sink sink, Map<Binary, String> strings,
                                   Map<String, String> pageStrings) throws IOException, InterruptedException {
        try (ParquetFileReader r = openPart(f)) {
            MessageType schema = r.getFooter().getFileMetaData().getSchema();
            List<String> columns = new ArrayList<>(required);
            for (String c : optional) {
                if (schema.containsField(c)) {
                    columns.add(c);
                }
            }
            List<Type> fields = new ArrayList<>();
            for (String c : columns) {
                if (!schema.containsField(c)) {
                    throw new IOException(f + ": table " + table + " has no column " + c
                            + " (written by a different version of ackscope?)");
                }
                fields.add(schema.getType(c));
            }
            MessageType projection = new MessageType(schema.getName(), fields);
            r.setRequestedSchema(projection);
            String createdBy = r.getFooter().getFileMetaData().getCreatedBy();
            GroupRecordConverter converter = new GroupRecordConverter(projection);
            List<BlockMetaData> blocks = r.getRowGroups();
            PageReadStore pages;
            for (int block = 0; (pages = r.readNextRowGroup()) != null; block++) {
                ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, converter.getRootConverter(),
                        projection, createdBy);
                int rows = Math.toIntExact(pages.getRowCount());
                Batch b = new Batch(columns, rows);
                for (int i = 0; i < columns.size(); i++) {
                    b.data[i] = ColumnChunks.read(pages, store, pageDecoding ? blocks.get(block) : null, projection,
                            columns.get(i), rows, strings, pageStrings);
                }
                if (strings.size() > 4096) {
                    strings.clear();
                }
                if (pageStrings.size() > 4096) {
                    pageStrings.clear();
                }
                sink.put(b);
            }
        }
    }

    /** Opens one part file ({@link ParquetFiles#open}: 50-60 ms of CPU less per table in a profile of the report). */
    private static ParquetFileReader openPart(Path f) throws IOException {
        // named by its path in Parquet's own errors ("... is not a Parquet file"), not LocalInputFile@1a2b3c
        LocalInputFile in = new LocalInputFile(f) {
            @Override
            public String toString() {
                return f.toString();
            }
        };
        return ParquetFiles.open(in);
    }

    /**
     * The Parquet files of a table directory, flat ({@code NAME/*.parquet}, schema versions up to 3) or
     * Hive-partitioned ({@code NAME/source=.../date=.../*.parquet}, version 4), sorted by their path below it;
     * every entry whose name starts with {@code _} or {@code .} is skipped with all it holds, as Spark and Hive skip
     * them ({@code _SUCCESS}, {@code _temporary/}, checksum files). Provisional rows ({@code open-*.parquet}) are
     * rows like any other.
     */
    static List<Path> parts(Path tableDir) throws IOException {
        if (!Files.isDirectory(tableDir)) {
            return List.of();
        }
        List<Path> files = new ArrayList<>();
        Files.walkFileTree(tableDir, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE,
                new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) {
                return d.equals(tableDir) || !hidden(d) ? FileVisitResult.CONTINUE
                        : FileVisitResult.SKIP_SUBTREE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes a) {
                if (a.isRegularFile() && !hidden(f) && f.getFileName().toString().endsWith(".parquet")) {
                    files.add(tableDir.relativize(f));
                }
                return FileVisitResult.CONTINUE;
            }
        });
        files.sort(null);
        return files.stream().map(tableDir::resolve).toList();
    }

    private static boolean hidden(Path p) {
        String n = p.getFileName().toString();
        return n.startsWith("_") || n.startsWith(".");
    }

    /** A nullable integer column: {@code values[i]} is meaningful only where {@code present[i]}. */
    public static class LongColumn {
        public final long[] values;
        public final boolean[] present;

        LongColumn(int rows) {
            values = new long[rows];
            present = new boolean[rows];
        }
    }

    /** A DOUBLE column: {@link LongColumn#values} rounded, {@link #exact} as written. */
    public static final class DoubleColumn extends LongColumn {
        public final double[] exact;

        DoubleColumn(int rows) {
            super(rows);
            exact = new double[rows];
        }
    }

    /** The requested columns of one row group. */
    public static final class Batch {
        private final List<String> names;
        public final int rows;
        final Object[] data;

        Batch(List<String> names, int rows) {
            this.names = names;
            this.rows = rows;
            this.data = new Object[names.size()];
        }

        /** True when {@code name} was requested. */
        public boolean has(Column c) {
            return names.contains(c.name());
        }

        private Object col(Column c) {
            int i = names.indexOf(c.name());
            if (i < 0) {
                throw new IllegalArgumentException("column " + c.name() + " was not requested");
            }
            return data[i];
        }

        /** A BOOLEAN, INT, LONG or TIMESTAMP column (DOUBLE rounded). */
        public LongColumn longs(Column c) {
            return (LongColumn) col(c);
        }

        /** A DOUBLE column, unrounded. */
        public DoubleColumn doubles(Column c) {
            return (DoubleColumn) col(c);
        }

        /** A STRING column; null where null. */
        public String[] strings(Column c) {
            return (String[]) col(c);
        }

        /** An INT_LIST or LONG_LIST column. */
        public long[][] longLists(Column c) {
            return (long[][]) col(c);
        }

        /** A STRING_LONG_MAP column. */
        @SuppressWarnings("unchecked")
        public List<Map<String, Long>> maps(Column c) {
            return (List<Map<String, Long>>) col(c);
        }
    }
}
