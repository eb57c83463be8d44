package io.ackscope.spark;

import io.ackscope.spark.commit.OutputDirectory;
import io.ackscope.spark.commit.TableCommit;
import io.ackscope.spark.commit.TableFiles;
import io.ackscope.spark.engine.ArchiveNumbering;
import io.ackscope.spark.source.CaptureFile;
import io.ackscope.spark.source.ReadPlan;
import io.ackscope.tables.HivePath;
import io.ackscope.tables.PacketSchema;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import io.ackscope.tcp.FrameFilter;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

/**
 * The {@code packets} table of {@code analyze --packets}: the {@code pcap} source's rows, written by Spark into
 * {@code source=<name>/date=<UTC date of the frame>} directories with every column kept in the files
 * ({@code source} too): Spark's writer drops its partition columns from the files, so it partitions by copies of
 * them under other names, and the directories are renamed after. {@code file_index} is the file's position in its
 * source, as in every table.
 */
final class PacketsTable {
    private PacketsTable() {
    }

    private static final String P_SOURCE = "_ackscope_p_source";
    private static final String P_DATE = "_ackscope_p_date";

    static void write(SparkSession spark, FrameFilter filter, OutputDirectory out, ArchiveNumbering numbering,
                      ReadPlan plan, Map<String, String> sourceDirs) throws IOException {
        // the files this run reads (an incremental run reads only its new files), each with its position and source
        // as the run numbers them (the source's own listing knows neither --source-by nor earlier runs)
        List<String> paths = new ArrayList<>();
        List<Column> indexOfPath = new ArrayList<>();
        List<Column> sourceOfPath = new ArrayList<>();
        for (CaptureFile f : plan.files()) {
            paths.add(f.path());
            indexOfPath.add(lit(f.path()));
            indexOfPath.add(lit(numbering.fileInSource(f.index())));
            sourceOfPath.add(lit(f.path()));
            sourceOfPath.add(lit(numbering.sourceName(numbering.source(f.index()))));
        }
        Dataset<Row> frames = spark.read().format("pcap").option("payloadBytes", 0).options(filter.options())
                .load(paths.toArray(new String[0]));
        String sourceName = PacketSchema.TABLE.column(PacketSchema.SOURCE).name();
        String fileIndex = PacketSchema.TABLE.column(PacketSchema.FILE_INDEX).name();
        Column file = col(PacketSchema.TABLE.column(PacketSchema.FILE).name());
        Column index = functions.element_at(functions.map(indexOfPath.toArray(new Column[0])), file);
        Column source = functions.element_at(functions.map(sourceOfPath.toArray(new Column[0])), file);
        Column time = col(PacketSchema.TABLE.column(PacketSchema.FRAME_TIME).name());
        frames.where(index.isNotNull()).withColumn(fileIndex, index.cast("int"))
                .withColumn(sourceName, source)
                .withColumn(P_SOURCE, source)
                .withColumn(P_DATE, functions.date_from_unix_date(functions.floor(
                        functions.unix_micros(time).divide(86_400_000_000L)).cast("int")))
                .write().partitionBy(P_SOURCE, P_DATE).parquet(out.staged(PacketSchema.TABLE.name()).toString());
        FileSystem fs = out.fs();
        Path table = out.staged(PacketSchema.TABLE.name());
        rename(fs, table, P_SOURCE, HivePath.SOURCE, P_DATE, HivePath.DATE);
        for (Map.Entry<String, String> s : sourceDirs.entrySet()) {
            if (!fs.exists(new Path(table, HivePath.sourceDir(s.getKey())))) {
                TableFiles.writer(PacketSchema.TABLE, new Path(new Path(table, s.getValue()), TableCommit.PART),
                        fs.getConf()).close();
            }
        }
    }

    /** Renames the partition directories {@code from=...} under {@code dir} to {@code to=...}, then the next level. */
    private static void rename(FileSystem fs, Path dir, String from, String to, String... below) throws IOException {
        for (FileStatus c : fs.listStatus(dir)) {
            String name = c.getPath().getName();
            if (!c.isDirectory() || !name.startsWith(from + "=")) {
                continue;
            }
            Path renamed = new Path(dir, to + name.substring(from.length()));
            if (!fs.rename(c.getPath(), renamed)) {
                throw new IOException("cannot move " + c.getPath() + " to " + renamed);
            }
            if (below.length >= 2) {
                rename(fs, renamed, below[0], below[1]);
            }
        }
    }
}
