package io.ackscope.spark.carry;

import io.ackscope.spark.commit.OutputDirectory;
import io.ackscope.spark.commit.TaskOutput;
import io.ackscope.spark.engine.ArchiveNumbering;
import io.ackscope.spark.engine.EngineCarry;
import io.ackscope.spark.engine.EngineTask;
import io.ackscope.spark.engine.HeldState;
import io.ackscope.spark.engine.SourceRows;
import io.ackscope.spark.source.ReadPlan;
import io.ackscope.spark.source.SplitStats;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.FindingsTable;
import io.ackscope.tables.HivePath;
import io.ackscope.tables.LatencySummaryTable;
import io.ackscope.tables.SourcesTable;
import io.ackscope.tables.TableSchema;
import org.apache.hadoop.fs.Path;
import org.apache.spark.util.SerializableConfiguration;

import io.ackscope.tcp.EndpointAggregate;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an incremental run ({@code analyze --incremental}, {@code --watch}) takes from the earlier output's state and
 * leaves in its own, so that the next run can add files to it.
 *
 * <p>Every incremental run carries: at the end of each source its engine tasks hold the open connections
 * ({@link EngineCarry}; their rows from the engines' finish are provisional, in {@code open-*} files), and each
 * source's final aggregates of {@code latency_summary} and {@code findings} are kept ({@link FinalAggregates}), all
 * under {@code _ackscope_state/held-<run>/}; {@code inputs.json} names that directory for each source with the
 * figures its numbering goes on from ({@link InputsState.Source}).
 *
 * <p>A run that <b>appends</b> ({@link ArchiveInputs.Append}) reads only the new files: each continued source's
 * engines resume what the run that last analysed it held, its numbering goes on ({@link ArchiveNumbering.Start}), and
 * the commit retires, of that source, the provisional rows, the rows of the tables made whole on the driver
 * ({@code latency_summary}, {@code findings}, {@code sources}) and its carried state; every file it writes is named
 * with its id ({@link io.ackscope.spark.commit.TableCommit#tagged}), so that none takes the name of a file that stays.
 */
public final class Continuation {
    /** What a run is to the output it writes: every run is one of these, so a continuation is never absent. */
    public enum Kind {
        /** A run without {@code --incremental}: it reads every file, carries nothing and replaces the output. */
        WHOLE,
        /** An incremental run that reads every file: it replaces the output and carries its open connections. */
        CARRYING,
        /** An incremental run that adds new files: it goes on from the state the run before it carried. */
        APPENDING
    }

    private final ArchiveInputs inputs;
    private final String run;
    private final Kind kind;
    /** This run's carried state, relative to the output directory ({@link CarriedState#runDir}). */
    final String held;

    private Continuation(ArchiveInputs inputs, String run, Kind kind) {
        this.inputs = inputs;
        this.run = run;
        this.kind = kind;
        this.held = CarriedState.runDir(run);
    }

    /** The continuation of run {@code run}, reading what {@code inputs} says. */
    public static Continuation of(boolean incremental, ArchiveInputs inputs, String run) {
        return new Continuation(inputs, run,
                !incremental ? Kind.WHOLE : inputs.append != null ? Kind.APPENDING : Kind.CARRYING);
    }

    public Kind kind() {
        return kind;
    }

    /** Whether the run adds files to the earlier output (rather than analysing every file). */
    public boolean appending() {
        return kind == Kind.APPENDING;
    }

    /**
     * The name tag of every file this run writes ({@link io.ackscope.spark.commit.TableCommit#tagged}): empty unless it
     * appends.
     */
    public String tag() {
        return appending() ? "-" + run.substring(0, 8) : "";
    }

    /** Where each continued source's numbering goes on (none unless appending). */
    public Map<String, ArchiveNumbering.Start> starts() {
        return appending() ? inputs.append.starts() : Map.of();
    }

    /** The sources the earlier output has files of, that this run continues (none unless appending). */
    Collection<String> continued() {
        return appending() ? inputs.append.sources().keySet() : List.of();
    }

    /**
     * The carry of the engine tasks: each continued source's held 4-tuples from its earlier run's directory, this
     * run's into {@link #held} in staging; {@link EngineCarry#NONE} for a {@link Kind#WHOLE} run, whose tasks hold
     * nothing.
     */
    public EngineCarry carry(OutputDirectory out, int reducers, SerializableConfiguration conf) {
        if (kind == Kind.WHOLE) {
            return EngineCarry.NONE;
        }
        Map<String, String> from = new LinkedHashMap<>();
        if (appending()) {
            inputs.append.sources().forEach((name, s) -> from.put(name, new Path(out.dir(), s.held()).toString()));
        }
        return new CarriedState.Held(from, new Path(out.staging(), held).toString(), reducers, conf, keepsTuples());
    }

    /** Whether this run keeps each source's 4-tuples ({@link SourceTuples}): when the archive has two or more. */
    boolean keepsTuples() {
        return inputs.archive.sources().size() >= 2;
    }

    /** {@code sourceDirs} without the continued sources (they have a file in every table already). */
    public Map<String, String> newSources(Map<String, String> sourceDirs) {
        Map<String, String> out = new LinkedHashMap<>(sourceDirs);
        continued().forEach(out::remove);
        return out;
    }

    /**
     * Adds the continued sources' earlier final aggregates to this run's ({@code endpoints}: that of the final rows
     * of the run), then keeps each source's in staging for the next run. Call before anything
     * provisional is merged into them.
     */
    public void keepFinals(OutputDirectory out, EndpointAggregate endpoints, Collection<String> sources) throws IOException {
        if (kind == Kind.WHOLE) {
            return;
        }
        for (Map.Entry<String, InputsState.Source> e : appending() ? inputs.append.sources().entrySet()
                : Map.<String, InputsState.Source>of().entrySet()) {
            EndpointAggregate before = finals.containsKey(e.getKey()) ? finals.remove(e.getKey())
                    : read(out, stateOf(out, e.getValue()), e.getKey());
            endpoints.merge(before);
        }
        for (String s : sources) {
            CarriedState staged = CarriedState.at(out.staging(), held);
            FinalAggregates.write(out.fs(), staged.finals(s), staged.run(), endpoints.only(s));
        }
    }

    private static EndpointAggregate read(OutputDirectory out, CarriedState state, String source)
            throws IOException {
        return FinalAggregates.read(out.fs(), state.finals(source), state.run());
    }

    /** The continued sources' final aggregates, read by {@link #damage}. */
    private final Map<String, EndpointAggregate> finals = new java.util.HashMap<>();
    private long carriedConnections;

    private static CarriedState stateOf(OutputDirectory out, InputsState.Source s) {
        return CarriedState.at(out.dir(), s.held());
    }

    /**
     * Before a run that appends reads anything: reads each continued source's carried state (its held 4-tuples,
     * checked record by record, its final aggregates and its 4-tuple lists), and says what is damaged or missing
     * (empty: nothing), so that the run reads every file instead of failing half way: the state only saves work.
     */
    public Optional<String> damage(OutputDirectory out) {
        if (!appending()) {
            return Optional.empty();
        }
        for (Map.Entry<String, InputsState.Source> e : inputs.append.sources().entrySet()) {
            String name = e.getKey();
            CarriedState state = stateOf(out, e.getValue());
            try {
                for (EngineCarry.Kind kind : EngineCarry.Kind.values()) {
                    long n = HeldState.check(out.fs().getConf(), state.held(kind, name), state.run());
                    if (kind == EngineCarry.Kind.ENGINE) {
                        carriedConnections += n;
                    }
                }
                finals.put(name, read(out, state, name));
                for (SourceTuples.Kind k : SourceTuples.Kind.values()) {
                    SourceTuples.read(out.fs(), state.tuples(k, name), state.run());
                }
            } catch (IOException | RuntimeException x) {
                return Optional.of("the carried state of source " + name + " cannot be read (" + x.getMessage()
                        + ")");
            }
        }
        return Optional.empty();
    }

    /** The open connections the sources' earlier runs carried to this one, once {@link #damage} read them. */
    public long carriedConnections() {
        return carriedConnections;
    }

    /**
     * After pass 1: keeps each source's 4-tuples and first handshakes ({@link SourceTuples}; a continued source's
     * with those of its earlier files), and in a run that appends to an archive of two or more sources, checks that
     * no new one is another source's.
     *
     * @return why the run must read every file instead (a new connection another source saw too, or an earlier run
     *         that kept no 4-tuples); empty: it goes on
     */
    public Optional<String> afterPass1(OutputDirectory out, List<EngineTask.Pass1> pass1, ArchiveNumbering numbering)
            throws IOException {
        if (kind == Kind.WHOLE || !keepsTuples()) {
            return Optional.empty();
        }
        Map<String, long[][]> run = SourceTuples.ofRun(pass1, numbering);
        Map<String, long[][]> before = new LinkedHashMap<>();
        boolean pairing = appending() && inputs.archive.sources().size() >= 2;
        for (String name : pairing ? inputs.archive.sources() : continued()) {
            InputsState.Source s = inputs.before.sources().get(name);
            if (s == null || s.held() == null) {
                continue;         // a source new to the output: nothing before
            }
            long[][] both = new long[2][];
            for (SourceTuples.Kind k : SourceTuples.Kind.values()) {
                CarriedState state = stateOf(out, s);
                try {
                    both[k.ordinal()] = SourceTuples.read(out.fs(), state.tuples(k, name), state.run());
                } catch (IOException x) {
                    return Optional.of("the 4-tuples source " + name + " carried cannot be read (" + x.getMessage()
                            + ")");
                }
                if (both[k.ordinal()] == null) {
                    return Optional.of("the earlier run kept no 4-tuples of source " + name);
                }
            }
            before.put(name, both);
        }
        if (pairing) {
            String found = sharedWithAnother(run, before);
            if (found != null) {
                return Optional.of(found);
            }
        }
        for (Map.Entry<String, long[][]> e : run.entrySet()) {
            long[][] old = before.get(e.getKey());
            for (SourceTuples.Kind k : SourceTuples.Kind.values()) {
                long[] mine = e.getValue()[k.ordinal()];
                long[] all = old == null || !inputs.append.sources().containsKey(e.getKey()) ? mine
                        : SourceTuples.union(old[k.ordinal()], mine);
                CarriedState staged = CarriedState.at(out.staging(), held);
                SourceTuples.write(out.fs(), staged.tuples(k, e.getKey()), staged.run(), all);
            }
        }
        return Optional.empty();
    }

    /** The first new 4-tuple or handshake of a source of {@code run} that another source has, said; null: none. */
    private static String sharedWithAnother(Map<String, long[][]> run, Map<String, long[][]> before) {
        for (Map.Entry<String, long[][]> mine : run.entrySet()) {
            for (String other : union(run.keySet(), before.keySet())) {
                if (other.equals(mine.getKey())) {
                    continue;
                }
                for (SourceTuples.Kind k : SourceTuples.Kind.values()) {
                    long[] a = run.containsKey(other) ? run.get(other)[k.ordinal()] : new long[0];
                    long[] b = before.containsKey(other) ? before.get(other)[k.ordinal()] : new long[0];
                    long[] added = mine.getValue()[k.ordinal()];
                    if (SourceTuples.intersect(added, a) || SourceTuples.intersect(added, b)) {
                        return "a new connection of source " + mine.getKey() + " was also seen by source " + other
                                + (k == SourceTuples.Kind.KEYS ? "" : " (the same handshake: through a NAT?)")
                                + ": the two capture points are paired over all files";
                    }
                }
            }
        }
        return null;
    }

    private static java.util.Set<String> union(java.util.Set<String> a, java.util.Set<String> b) {
        java.util.Set<String> out = new java.util.TreeSet<>(a);
        out.addAll(b);
        return out;
    }

    /** The tables made whole on the driver, partitioned by source: a continued source's files there are replaced. */
    private static final List<TableSchema> REWRITTEN = List.of(LatencySummaryTable.TABLE, FindingsTable.TABLE,
            SourcesTable.TABLE);

    /**
     * The earlier output's files this run retires: all of them when it analyses every file; when it appends, each
     * continued source's provisional rows, its files of the tables rewritten whole, and its carried state.
     */
    public List<String> retired(OutputDirectory out) throws IOException {
        List<String> before = out.previousFiles();
        if (!appending()) {
            return before;
        }
        List<String> prefixes = new ArrayList<>();
        List<String> open = new ArrayList<>();
        inputs.append.sources().forEach((name, s) -> {
            String dir = HivePath.sourceDir(name) + "/";
            for (TableSchema t : REWRITTEN) {
                prefixes.add(t.name() + "/" + dir);
            }
            for (TableSchema t : EngineTables.ALL) {
                open.add(t.name() + "/" + dir);
            }
            prefixes.addAll(CarriedState.at(s.held()).filesOf(name));
        });
        List<String> retire = new ArrayList<>();
        for (String f : before) {
            String name = f.substring(f.lastIndexOf('/') + 1);
            if (prefixes.stream().anyMatch(f::startsWith)
                    || (name.startsWith(TaskOutput.PROVISIONAL) && open.stream().anyMatch(f::startsWith))) {
                retire.add(f);
            }
        }
        return retire;
    }

    /**
     * The text of the new {@code inputs.json}: the earlier inputs that stay (when appending) and this run's, the
     * options, and each source's figures ({@code totals} of this run's sources, in their order); a
     * {@link Kind#WHOLE} run records its files and options alone.
     */
    public String inputsJson(String options, ReadPlan plan, List<SplitStats> perFile, ArchiveNumbering numbering,
                      List<SourceRows.Totals> totals, long pairedSources) throws IOException {
        if (kind == Kind.WHOLE) {
            return InputsState.json(inputs.state(plan, perFile, numbering, run), options);
        }
        List<InputsState.Input> files = new ArrayList<>();
        Map<String, InputsState.Source> sources = new LinkedHashMap<>();
        if (appending()) {
            files.addAll(inputs.before.files().values());
            sources.putAll(inputs.before.sources());
        }
        files.addAll(inputs.state(plan, perFile, numbering, run));
        for (int s = 0; s < plan.sources().size(); s++) {
            sources.put(plan.sources().get(s), new InputsState.Source(totals.get(s), numbering.next(s, perFile), held,
                    keepsTuples()));
        }
        return InputsState.json(files, options, sources,
                appending() ? inputs.before.paired() : pairedSources);
    }

    /** What the earlier runs' totals of each continued source are. */
    public Map<String, SourceRows.Totals> totalsBefore() {
        Map<String, SourceRows.Totals> out = new LinkedHashMap<>();
        if (appending()) {
            inputs.append.sources().forEach((name, s) -> out.put(name, s.totals()));
        }
        return out;
    }
}
