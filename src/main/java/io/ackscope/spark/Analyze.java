package io.ackscope.spark;

import io.ackscope.spark.carry.ArchiveInputs;
import io.ackscope.spark.carry.CarriedState;
import io.ackscope.spark.carry.Continuation;
import io.ackscope.spark.carry.InputsState;
import io.ackscope.spark.carry.Settle;
import io.ackscope.spark.commit.CommitSteps;
import io.ackscope.spark.commit.DatasetView;
import io.ackscope.spark.commit.NoSpace;
import io.ackscope.spark.commit.OutputDirectory;
import io.ackscope.spark.engine.ArchiveNumbering;
import io.ackscope.spark.engine.CaptureFileRows;
import io.ackscope.spark.engine.SegmentShuffle;
import io.ackscope.spark.engine.SourceRows;
import io.ackscope.spark.source.CapturePlanner;
import io.ackscope.spark.source.HadoopArchiveStore;
import io.ackscope.spark.source.ReadPlan;
import io.ackscope.spark.source.SplitStats;
import io.ackscope.spark.source.SplitStatsAccumulator;

import io.ackscope.capture.Archive;
import io.ackscope.tcp.FrameFilter;
import io.ackscope.tables.VantageTables;
import io.ackscope.tcp.Segment;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.SerializableConfiguration;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code ackscope analyze}: captures in, Parquet tables out.
 *
 * <ol>
 *   <li>Plan the read as the {@code pcap} source does ({@link CapturePlanner}: large files in parallel splits), and
 *       read every split's TCP frames as compact segment rows
 *       ({@link io.ackscope.spark.source.SegmentRows}), counting every frame per file
 *       ({@link SplitStatsAccumulator}).</li>
 *   <li>Shuffle them by canonical 4-tuple (a direction-independent hash of it) so that each engine task gets its
 *       frames in file order (file, then frame number), the order the single-JVM engine reads them, without a sort
 *       ({@link SegmentShuffle}). (Not by timestamp: capture timestamps can run backwards, and the engine, like
 *       tshark, follows the file.)</li>
 *   <li>Pass 1: run the engine per partition to learn each connection's first appearance; rank those into global
 *       {@code tcp.stream} numbers on the driver.</li>
 *   <li>Pass 2: run it again over the same shuffle output, writing every engine table with the global numbers.</li>
 *   <li>Merge the tasks' per-server latency aggregates into {@code latency_summary} and their cause aggregates into
 *       {@code findings}; write {@code capture_files}
 *       and (with {@code --packets}) {@code packets}; stage the marker, let the caller add the report to the staged
 *       output ({@link BeforeCommit}), commit ({@link OutputDirectory}).</li>
 * </ol>
 *
 * <p><b>Incremental runs</b> ({@link Options#incremental}): the inputs are listed and compared with the output's
 * {@code _ackscope_state/inputs.json} before anything is read ({@link #decide}, {@link ArchiveInputs}); with nothing
 * new nothing is done. When the new files only follow the analysed ones, the run appends ({@link Continuation}): it
 * reads the new files alone, resumes the connections the earlier runs held open, and retires only the rows and state
 * it supersedes. Otherwise (a changed or vanished file, other options, unreadable carried state, a new connection
 * another capture source saw too) every file is analysed again and every file of the earlier output retired in the
 * same commit. Either way the tables, the pair tables of two capture points and the report are those of one run over
 * the files taken. A caller that runs batches ({@code analyze --watch}) calls
 * {@link #run(SparkSession, Options, PrintStream, boolean, BeforeCommit)} with {@code options.incremental(settle)}
 * once per batch.
 *
 * <p><b>Memory</b> follows the connections open at once and the distinct latency values, never the capture size:
 * a read task holds one record buffer and one reused row, and Spark's shuffle writer spills when it must; an engine
 * task streams its frames from the shuffle blocks (a few blocks ahead, nothing sorted in memory) and holds the state
 * of the connections open in its partition (bounded per connection by the engine) plus at most one 16 MB Parquet row
 * group per table; latency values are kept as exact counts of distinct microsecond values per server endpoint; the
 * driver holds 8 bytes per connection (the stream ranks) and one statistics record per split. Nothing is held in
 * Spark's execution memory (no sort, no aggregation), so all but Spark's own reserve is left to the engine and the
 * writers: a 1.28 GB capture runs with a 256 MB heap (bench/analyze-bench.sh runs one 4x smaller than the capture).
 */
public final class Analyze {
    private Analyze() {
    }

    /**
     * @param inputs      capture files, directories or globs (any Hadoop filesystem)
     * @param out         output directory
     * @param overwrite   replace an earlier ackscope output in {@code out}
     * @param packets     also write the {@code packets} table
     * @param partitions  shuffle partitions for the engine; 0 = {@code spark.sql.shuffle.partitions}
     * @param sourceBy    how files are assigned to capture sources ({@link Archive.SourceRule})
     * @param filter      the frames read ({@link FrameFilter}; the others are counted as skipped)
     * @param incremental add to the earlier output in {@code out} ({@link ArchiveInputs}): nothing is done when
     *                    no file is new or changed
     * @param settle      with {@code incremental}, the quiet period of each source's newest file ({@link Settle})
     */
    public record Options(List<String> inputs, String out, boolean overwrite, boolean packets, int partitions,
                          Archive.SourceRule sourceBy, FrameFilter filter, boolean incremental, Duration settle) {
        public Options(List<String> inputs, String out, boolean overwrite, boolean packets, int partitions) {
            this(inputs, out, overwrite, packets, partitions, Archive.SourceRule.DIRECTORY, FrameFilter.NONE);
        }

        public Options(List<String> inputs, String out, boolean overwrite, boolean packets, int partitions,
                       Archive.SourceRule sourceBy) {
            this(inputs, out, overwrite, packets, partitions, sourceBy, FrameFilter.NONE);
        }

        public Options(List<String> inputs, String out, boolean overwrite, boolean packets, int partitions,
                       Archive.SourceRule sourceBy, FrameFilter filter) {
            this(inputs, out, overwrite, packets, partitions, sourceBy, filter, false, Settle.DEFAULT);
        }

        /** These options for an incremental run with {@code settle} ({@code analyze --watch} runs one per batch). */
        public Options incremental(Duration settle) {
            return new Options(inputs, out, false, packets, partitions, sourceBy, filter, true, settle);
        }
    }


    /**
     * What runs once the tables are staged and readable as a complete output in {@code stagedDir} (a Hadoop path
     * inside {@code --out}), before the commit: whatever it writes there (the report) is committed with the tables.
     */
    public interface BeforeCommit {
        void staged(String stagedDir, RunSummary summary) throws IOException;
    }

    /** Runs the analysis on {@code spark}; progress goes to {@code console}. */
    public static RunSummary run(SparkSession spark, Options o, PrintStream console, boolean terminal)
            throws IOException {
        return run(spark, o, console, terminal, (dir, s) -> { });
    }

    /** Runs the analysis, then {@code beforeCommit} on the staged output, then commits it. */
    public static RunSummary run(SparkSession spark, Options o, PrintStream console, boolean terminal,
                              BeforeCommit beforeCommit) throws IOException {
        OutputDirectory out = OutputDirectory.prepare(o.out(), o.inputs(),
                spark.sparkContext().hadoopConfiguration(), o.overwrite(), o.incremental());
        return run(spark, out, o, console, terminal, beforeCommit);
    }

    /**
     * Runs the analysis into {@code out}, prepared for {@code o.out()} (so that a command can take the output's
     * lock before Spark starts); aborts and closes {@code out} in any case.
     */
    public static RunSummary run(SparkSession spark, OutputDirectory out, Options o, PrintStream console,
                              boolean terminal, BeforeCommit beforeCommit) throws IOException {
        return run(spark, out, o, null, console, terminal, beforeCommit);
    }

    /**
     * Lists the inputs of {@code o} and decides what a run into {@code out} reads ({@link ArchiveInputs}: the
     * settle rule, and for an incremental run whether anything is new), without Spark: a command can end at once
     * when {@link ArchiveInputs#nothingNew()}, and otherwise hand the decision to {@link #run(SparkSession,
     * OutputDirectory, Options, ArchiveInputs, PrintStream, boolean, BeforeCommit)}.
     */
    public static ArchiveInputs decide(OutputDirectory out, Options o, Configuration conf) throws IOException {
        return ArchiveInputs.of(request(o), out, conf, System.currentTimeMillis());
    }

    /** What a run with options {@code o} asks of its inputs. */
    private static ArchiveInputs.Request request(Options o) {
        return new ArchiveInputs.Request(o.inputs(), o.sourceBy(), o.out(), o.incremental(), o.settle(),
                stateOptions(o));
    }

    /**
     * The options that shape the rows (the packets table, the source rule, the frame filters), as recorded in the
     * state: an incremental run with other options than the output's analyses everything again.
     */
    private static String stateOptions(Options o) {
        return "packets=" + o.packets() + "; source_by=" + o.sourceBy() + "; filter=" + o.filter().describe();
    }

    /** The summary of an incremental run that found nothing new (it wrote nothing), for {@code decided}. */
    public static RunSummary nothingNew(OutputDirectory out, ArchiveInputs decided, double seconds) {
        return RunSummary.nothingNew(out.dir().toString(), decided, seconds);
    }

    /**
     * As {@link #run(SparkSession, OutputDirectory, Options, PrintStream, boolean, BeforeCommit)}, reading what
     * {@code decided} ({@link #decide}; null: decide now) says.
     */
    public static RunSummary run(SparkSession spark, OutputDirectory out, Options o, ArchiveInputs decided,
                              PrintStream console, boolean terminal, BeforeCommit beforeCommit) throws IOException {
        HeapUse.clear();
        try {
            Attempt first = attempt(spark, out, o, decided, console, terminal, beforeCommit);
            if (first instanceof Done done) {
                return done.summary();
            }
            ReadAll again = (ReadAll) first;
            console.println("ackscope analyze: " + again.why() + "; reading all files again");
            out.restage();
            Attempt second = attempt(spark, out, o, again.inputs().whole(again.why()), console, terminal,
                    beforeCommit);
            if (second instanceof Done done) {
                return done.summary();
            }
            throw new IllegalStateException("a run that reads every file cannot be told to read every file again");
        } finally {
            out.close();
        }
    }

    /**
     * What one attempt came to: the committed run's summary, or the decision to read every file again into the
     * same staging directory ({@link Continuation#afterPass1}).
     */
    private sealed interface Attempt permits Done, ReadAll {
    }

    private record Done(RunSummary summary) implements Attempt {
    }

    /** The run, deciding on {@code inputs}, must read every file instead, {@code why}. */
    private record ReadAll(ArchiveInputs inputs, String why) implements Attempt {
    }

    /** One attempt at {@link #run(SparkSession, OutputDirectory, Options, ArchiveInputs, PrintStream, boolean, BeforeCommit)}. */
    private static Attempt attempt(SparkSession spark, OutputDirectory out, Options o, ArchiveInputs decided,
                                   PrintStream console, boolean terminal, BeforeCommit beforeCommit)
            throws IOException {
        long start = System.nanoTime();
        Map<String, Double> phases = new LinkedHashMap<>();
        Configuration conf = spark.sparkContext().hadoopConfiguration();
        String id = UUID.randomUUID().toString();
        SplitStatsAccumulator splits = SplitStatsAccumulator.register(spark.sparkContext(), id);
        ProgressReporter progress = new ProgressReporter(console, splits, terminal, 10);
        StageTimes stageTimes = new StageTimes();
        List.of(progress, stageTimes).forEach(spark.sparkContext()::addSparkListener);
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            Configuration hadoop = CapturePlanner.hadoopConf(spark, Map.of());
            long t = System.nanoTime();
            ArchiveInputs inputs = decided != null ? decided
                    : ArchiveInputs.of(request(o), out, hadoop, System.currentTimeMillis());
            if (inputs.nothingNew) {
                out.abort();
                return new Done(RunSummary.nothingNew(out.dir().toString(), inputs, StageTimes.secondsSince(start)));
            }
            Broadcast<SerializableConfiguration> confB = jsc.broadcast(new SerializableConfiguration(hadoop));
            Continuation cont = Continuation.of(o.incremental(), inputs, id);
            Optional<String> damage = cont.damage(out);
            if (damage.isPresent()) {
                console.println("ackscope analyze: " + damage.get() + "; reading all files again");
                inputs = inputs.whole(damage.get());
                cont = Continuation.of(o.incremental(), inputs, id);
            }
            Numbered n = readAndNumber(spark, o, inputs, hadoop, confB, splits, cont, phases, t);
            Read read = n.read();
            List<SplitStats> perFile = n.perFile();
            ArchiveNumbering numbering = n.numbering();
            Broadcast<ArchiveNumbering> numberingB = n.numberingB();
            Map<String, String> sourceDirs = CaptureFileRows.sourceDirs(read.plan(), perFile);
            Map<String, String> newSources = cont.newSources(sourceDirs);
            EnginePasses.Outcome passes = EnginePasses.run(spark, out, read.shuffled(), numbering, numberingB, confB,
                    progress, phases, newSources, cont, splits.roles());
            if (passes instanceof EnginePasses.ReadAll readAll) {
                return new ReadAll(inputs, readAll.why());
            }
            EnginePasses.Engine engine = (EnginePasses.Engine) passes;
            Map<String, Long> tableRows = engine.tableRows();

            t = System.nanoTime();
            long attemptsEvicted = DriverTables.writeAggregates(out, engine, conf, tableRows, sourceDirs.keySet(),
                    cont);
            phases.put("latency summary", StageTimes.secondsSince(t));
            ReadPlan plan = splits.plan();
            List<SourceRows.Totals> totals = SourceRows.totals(plan, perFile, numbering,
                    cont.totalsBefore());
            DriverTables.Frames frames = DriverTables.writeFileTables(out, plan, perFile, numbering, conf,
                    tableRows, totals, cont.tag());
            if (o.packets()) {
                packets(spark, o, out, numbering, read.plan(), newSources, progress, phases);
                tableRows.put("packets", frames.total() - frames.filtered());
            }
            long connections = engine.ranks().length;
            RunSummary result = new RunSummary.Builder(out.dir().toString()).files(plan.files().size())
                    .bytes(plan.totalBytes()).frames(frames.total(), frames.tcp(), frames.filtered())
                    .connections(connections, attemptsEvicted).tables(tableRows, frames.damaged())
                    .seconds(StageTimes.secondsSince(start)).phases(phases, stageTimes.describe())
                    .tasks(plan.partitions().size(), (int) plan.filePlans().stream().filter(f -> f.splits() > 1).count())
                    .sources(plan.sources().size()).notRead(RunSummary.notRead(plan.archive())).filter(o.filter())
                    .heldBack(inputs.heldBack).outputFiles(inputs.archive.files().size()).build();
            commit(out, cont, cont.inputsJson(stateOptions(o), read.plan(), perFile, numbering, totals,
                    tableRows.getOrDefault(VantageTables.SOURCE_PAIRS.name(), 0L)), result, beforeCommit);
            return new Done(result);
        } catch (Throwable e) {
            // Throwable: Spark rethrows a task's failure as SparkException, a checked exception Scala does not declare
            long staged = NoSpace.is(e) ? out.stagedBytes() : -1;
            out.abort();
            if (staged >= 0) {
                throw out.noSpaceError(e, staged);
            }
            throw e;
        } finally {
            detach(spark, progress, stageTimes, id);
        }
    }

    /** Ends an attempt's progress line and removes what it registered with Spark. */
    private static void detach(SparkSession spark, ProgressReporter progress, StageTimes stageTimes, String id) {
        spark.sparkContext().setJobDescription(null);
        progress.close();
        spark.sparkContext().removeSparkListener(progress);
        spark.sparkContext().removeSparkListener(stageTimes);
        SplitStatsAccumulator.unregister(id);
    }

    /** The frames read and shuffled, each file's split figures, and their numbering across overlapping files. */
    private record Numbered(Read read, List<SplitStats> perFile, ArchiveNumbering numbering,
                            Broadcast<ArchiveNumbering> numberingB) {
    }

    /**
     * Steps 1 and 2: reads, decodes and shuffles the frames of the files {@code inputs} reads, then numbers them
     * (a file's frames that an earlier file of its source holds too are duplicates), timing both phases (reading from
     * {@code started}, when the inputs were listed).
     */
    private static Numbered readAndNumber(SparkSession spark, Options o, ArchiveInputs inputs, Configuration hadoop,
                                          Broadcast<SerializableConfiguration> confB, SplitStatsAccumulator splits,
                                          Continuation cont, Map<String, Double> phases, long started)
            throws IOException {
        Read read = read(spark, o, inputs.toRead(), hadoop, confB, splits);
        HeapUse.note(cont.carriedConnections(), read.plan().files().size(), read.plan().totalBytes());
        phases.put(READ, StageTimes.secondsSince(started));
        long t = System.nanoTime();
        List<SplitStats> perFile = read.plan().perFile(splits.value());
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        long[][] duplicates = duplicates(jsc, read.plan(), perFile, confB);
        ArchiveNumbering numbering = ArchiveNumbering.of(read.plan(), perFile, duplicates, cont.starts());
        Broadcast<ArchiveNumbering> numberingB = jsc.broadcast(numbering);
        phases.put(OVERLAPS, StageTimes.secondsSince(t));
        return new Numbered(read, perFile, numbering, numberingB);
    }

    /** Writes the {@code packets} table of the files of {@code plan} ({@link PacketsTable}). */
    private static void packets(SparkSession spark, Options o, OutputDirectory out, ArchiveNumbering numbering,
                                ReadPlan plan, Map<String, String> newSources, ProgressReporter progress,
                                Map<String, Double> phases) throws IOException {
        long t = System.nanoTime();
        progress.phase("writing packets");
        spark.sparkContext().setJobDescription("packets table");
        PacketsTable.write(spark, o.filter(), out, numbering, plan, newSources);
        phases.put("packets table", StageTimes.secondsSince(t));
    }

    /**
     * Stages the state ({@code stateJson}: {@code inputs.json}) and the marker, lets {@code beforeCommit} make the
     * report, and commits, retiring what the run replaces ({@link Continuation#retired}; everything for another run).
     */
    private static void commit(OutputDirectory out, Continuation cont, String stateJson, RunSummary result,
                               BeforeCommit beforeCommit) throws IOException {
        CommitSteps.writeAtomically(out.fs(), new Path(out.staging(), CarriedState.INPUTS), stateJson);
        out.stage(result.json());
        List<String> retire = cont.retired(out);
        DriverTables.stagedReport(out, cont.appending() ? DatasetView.of(out, retire) : null, beforeCommit, result);
        out.commit(retire);
    }

    /** The planned read and its shuffle output: the TCP frames of every split, each partition in file order. */
    private record Read(ReadPlan plan, SegmentShuffle.Shuffled shuffled) {
    }

    /**
     * Plans the read and runs the read stage: TCP frames as segment rows, shuffled by connection key (the same in
     * both directions, so both directions of a 4-tuple meet in one partition; see SegmentRows.connectionKey), each
     * partition in file order (SegmentShuffle).
     */
    private static Read read(SparkSession spark, Options o, Archive archive, Configuration hadoop,
                             Broadcast<SerializableConfiguration> confB, SplitStatsAccumulator splits)
            throws IOException {
        int partitions = o.partitions() > 0 ? o.partitions()
                : Integer.parseInt(spark.conf().get("spark.sql.shuffle.partitions"));
        spark.sparkContext().setJobDescription(READ);
        ReadPlan readPlan = CapturePlanner.plan(spark, archive, hadoop, confB);
        splits.planned(readPlan);
        SegmentShuffle.Shuffled shuffled = SegmentShuffle.inFileOrder(spark.sparkContext(), readPlan, confB, splits,
                partitions, Segment.MAX_PAYLOAD_PREFIX, true, o.filter());
        shuffled.readStage(spark.sparkContext());
        return new Read(readPlan, shuffled);
    }

    static final String READ = "read, decode and shuffle";
    static final String OVERLAPS = "overlapping files";

    /** Tasks per core of the job that compares overlapping files. */
    static final int OVERLAP_TASKS_PER_CORE = 4;

    /**
     * The duplicate frames of each file that overlaps earlier files of its source (null for the others), found by
     * {@link io.ackscope.capture.Overlaps} for each such file, in at most {@link #OVERLAP_TASKS_PER_CORE} tasks per
     * core (runs of consecutive files; one task per file made 194 tasks on an archive of 10,008 small files); no job
     * when no files overlap.
     */
    private static long[][] duplicates(JavaSparkContext jsc, ReadPlan plan, List<SplitStats> perFile,
                                       Broadcast<SerializableConfiguration> confB) {
        long[][] out = new long[plan.files().size()][];
        List<ArchiveNumbering.OverlapTask> tasks = ArchiveNumbering.overlapTasks(plan, perFile);
        if (tasks.isEmpty()) {
            return out;
        }
        int slices = Math.min(tasks.size(), OVERLAP_TASKS_PER_CORE * Math.max(1, jsc.defaultParallelism()));
        List<long[]> found = jsc.parallelize(tasks, slices).map(task -> {
            HadoopArchiveStore store = new HadoopArchiveStore(confB.value().value());
            return io.ackscope.capture.Overlaps.duplicates(task.earlier(), task.path(), store::openCapture);
        }).collect();
        for (int i = 0; i < tasks.size(); i++) {
            out[tasks.get(i).file()] = found.get(i);
        }
        return out;
    }
}
