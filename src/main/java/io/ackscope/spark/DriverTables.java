package io.ackscope.spark;

import io.ackscope.spark.carry.Continuation;
import io.ackscope.spark.commit.OutputDirectory;
import io.ackscope.spark.commit.TableCommit;
import io.ackscope.spark.engine.ArchiveNumbering;
import io.ackscope.spark.engine.CaptureFileRows;
import io.ackscope.spark.engine.EngineTask;
import io.ackscope.spark.engine.EndpointRows;
import io.ackscope.spark.engine.SourceRows;
import io.ackscope.spark.engine.VantageAggregate;
import io.ackscope.spark.engine.VantagePlan;
import io.ackscope.spark.source.CaptureFile;
import io.ackscope.spark.source.ReadPlan;
import io.ackscope.spark.source.SplitStats;
import io.ackscope.tables.CaptureFilesTable;
import io.ackscope.tables.FindingsTable;
import io.ackscope.tables.LatencySummaryTable;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.SourcesTable;
import io.ackscope.tables.VantageTables;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import io.ackscope.tcp.EndpointAggregate;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The tables {@code analyze} makes on the driver once the engine tasks are done: {@code latency_summary} and
 * {@code findings} from the tasks' aggregates (with a continued source's kept ones: {@link Continuation}), the two
 * pair tables, {@code capture_files} and {@code sources} from the read's per-file figures; and the report of the
 * staged output.
 */
final class DriverTables {
    private DriverTables() {
    }

    /**
     * Merges the tasks' per-endpoint aggregates into {@code latency_summary} and {@code findings} and their vantage sums into {@code source_pairs} and {@code host_times}, writes them; returns
     * the connection attempts the tasks evicted.
     */
    static long writeAggregates(OutputDirectory out, EnginePasses.Engine engine, Configuration conf,
                                Map<String, Long> tableRows, Collection<String> sources, Continuation cont)
            throws IOException {
        EndpointAggregate endpoints = new EndpointAggregate();
        VantageAggregate vantage = new VantageAggregate();
        long attemptsEvicted = 0;
        for (EngineTask.Result r : engine.results()) {
            endpoints.merge(r.endpoints());
            vantage.merge(r.vantage());
            attemptsEvicted += r.attemptsEvicted();
        }
        cont.keepFinals(out, endpoints, sources);   // before the provisional rows are added
        for (EngineTask.Result r : engine.results()) {
            endpoints.merge(r.openEndpoints());
        }
        String tag = cont.tag();
        VantagePlan pairs = engine.pairs();
        if (cont.appending()) {
            // nothing paired (Continuation#afterPass1): the earlier output's tables, empty, stay
            tableRows.put(VantageTables.SOURCE_PAIRS.name(), 0L);
            tableRows.put(VantageTables.HOST_TIMES.name(), 0L);
        } else {
            TableCommit.smallTable(out, VantageTables.SOURCE_PAIRS,
                    pairs == null ? List.of() : vantage.sourcePairRows(pairs, engine.ranked()), conf, tableRows);
            TableCommit.smallTable(out, VantageTables.HOST_TIMES,
                    pairs == null ? List.of() : vantage.hostTimeRows(pairs, engine.ranked()), conf, tableRows);
        }
        TableCommit.partitioned(out, LatencySummaryTable.TABLE,
                TableCommit.bySource(LatencySummaryTable.TABLE, EndpointRows.latencySummary(endpoints), sources), conf, tableRows, tag);
        TableCommit.partitioned(out, FindingsTable.TABLE,
                TableCommit.bySource(FindingsTable.TABLE, EndpointRows.findings(endpoints), sources), conf, tableRows, tag);
        return attemptsEvicted;
    }

    /**
     * Frames read (all, with a TCP header, and dropped by the filters) and the files damaged or cut short (each with
     * the byte offset where reading stopped), for the summary and {@code --strict}.
     */
    record Frames(long total, long tcp, long filtered, List<String> damaged) {
    }

    /** Writes {@code capture_files} and {@code sources} from the read's per-file statistics. */
    static Frames writeFileTables(OutputDirectory out, ReadPlan plan, List<SplitStats> perFile,
                                  ArchiveNumbering numbering, Configuration conf, Map<String, Long> tableRows,
                                  List<SourceRows.Totals> totals, String tag) throws IOException {
        Map<String, List<RowBuffer>> fileRows = new java.util.TreeMap<>();
        List<String> damaged = new ArrayList<>();
        long totalFrames = 0, tcpFrames = 0, filteredFrames = 0;
        for (CaptureFile f : plan.files()) {
            SplitStats s = perFile.get(f.index());
            fileRows.computeIfAbsent(CaptureFileRows.dir(plan, f, perFile), d -> new ArrayList<>()).add(
                    CaptureFileRows.fill(new RowBuffer(CaptureFilesTable.TABLE), f,
                    plan.filePlans().get(f.index()), s, numbering,
                    plan.archive() != null ? plan.archive().files().get(f.index()) : null));
            if (s != null) {
                totalFrames += s.frames().frames();
                tcpFrames += s.frames().tcpFrames();
                filteredFrames += s.frames().filteredFrames();
                if (s.errorOffset() != null) {
                    damaged.add(f.path() + ": byte " + s.errorOffset() + ": " + s.errorReason());
                } else if (s.tailOffset() != null) {
                    damaged.add(f.path() + ": byte " + s.tailOffset() + ": cut short: " + s.tailReason());
                }
            }
        }
        TableCommit.partitioned(out, CaptureFilesTable.TABLE, fileRows, conf, tableRows, tag);
        TableCommit.partitioned(out, SourcesTable.TABLE, TableCommit.bySource(SourcesTable.TABLE,
                SourceRows.rows(plan, numbering, totals), plan.sources()), conf, tableRows, tag);
        return new Frames(totalFrames, tcpFrames, filteredFrames, damaged);
    }

    /**
     * Runs {@code beforeCommit} (the report) on the staged output, or when the run adds to an earlier output, on
     * {@code view} ({@link io.ackscope.spark.commit.DatasetView}: the whole dataset as it will be), moving what it
     * writes there into staging.
     */
    static void stagedReport(OutputDirectory out, java.nio.file.Path view, Analyze.BeforeCommit beforeCommit,
                             RunSummary result) throws IOException {
        if (view == null) {
            beforeCommit.staged(out.staging().toString(), result);
            return;
        }
        try {
            beforeCommit.staged(view.toString(), result);
            java.nio.file.Path report = view.resolve(io.ackscope.output.OutputMarker.REPORT);
            if (java.nio.file.Files.isRegularFile(report, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                java.nio.file.Files.move(report, java.nio.file.Path.of(out.staging().toUri())
                        .resolve(io.ackscope.output.OutputMarker.REPORT));
            }
        } finally {
            out.fs().delete(new Path(view.toUri()), true);
        }
    }
}
