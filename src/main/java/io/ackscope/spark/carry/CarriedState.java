package io.ackscope.spark.carry;

import io.ackscope.spark.engine.EngineCarry;
import io.ackscope.spark.engine.HeldState;
import io.ackscope.tcp.HeldTuple;
import org.apache.hadoop.fs.Path;
import org.apache.spark.util.SerializableConfiguration;

import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The carried state of an output, on disk: the one class that names its files and directories. Every other class
 * asks it for a path.
 *
 * <pre>
 * _ackscope_state/                              {@link #DIR}
 *   inputs.json                                 {@link #INPUTS}: the files read, the options, each source's figures
 *   held-&lt;run&gt;/                                  {@link #runDir}: what run &lt;run&gt; carried, one per run that carried
 *     boundaries|engine|values/&lt;src&gt;/part-NNNNN.held   {@link #held}: the held 4-tuples of each kind
 *     final/&lt;src&gt;.agg                           {@link #finals}: the source's final per-endpoint aggregate
 *     tuples|handshakes/&lt;src&gt;.keys              {@link #tuples}: the source's 4-tuple keys and first handshakes
 * </pre>
 * {@code <src>} is the source name's UTF-8 bytes in hex ({@link #hex}), so any name is one path segment. A source's
 * {@code held-<run>} is named in {@code inputs.json}; a run that appends retires a continued source's files of the
 * earlier run ({@link #filesOf}) and writes its own under its own {@code held-<run>}.
 *
 * <h2>Formats</h2>
 * Four formats live here, each with its own header and version rule (the three binary ones stamped with the run's
 * name, {@link #run}); a file of another version or a damaged one
 * makes the next run analyse every file again (the state only saves work), never fail:
 * <ul>
 *   <li>{@code inputs.json} (Jackson, {@link InputsState}): a {@code "version"} key; a reader refuses another
 *       version.</li>
 *   <li>{@code *.held} ({@link HeldState}): magic {@code ACKHELD} and a version byte, then CRC-checked records of
 *       engine state. A binary record stream because tasks write it on executors, one file per shuffle partition,
 *       read back by partition; the {@code values} kind's state bytes carry {@code OpenValues}' own version byte,
 *       since that state changes with the latency columns and not with the record layout.</li>
 *   <li>{@code *.agg} ({@link FinalAggregates}): magic {@code ACKAGG} and a version byte, then Java serialization
 *       behind an allow-list filter: the aggregates are object graphs (histograms, maps of causes) that only the
 *       driver writes and reads; a class change bumps the version.</li>
 *   <li>{@code *.keys} ({@link SourceTuples}): magic {@code ACKU}, the run's name and a count, then sorted longs: a
 *       flat array the driver intersects; it has no version byte, a new layout taking a new magic; a file without
 *       it is damage.</li>
 * </ul>
 * One versioned container for all four was not made: the first is for people and scripts, the second is written in
 * parallel by tasks, the last two only by the driver.
 */
public final class CarriedState {
    /** The directory of the carried state, under the output directory. */
    public static final String DIR = "_ackscope_state";
    /** The inputs of the runs so far, relative to the output directory. */
    public static final String INPUTS = DIR + "/inputs.json";

    private static final String FINAL = "final";

    private final String root;

    private CarriedState(String root) {
        this.root = root;
    }

    /** The directory of run {@code run}'s carried state, relative to the output directory. */
    static String runDir(String run) {
        return DIR + "/held-" + run;
    }

    /** The carried state of one run at {@code runDir} (as {@link #runDir} gives it) below {@code base}. */
    static CarriedState at(Path base, String runDir) {
        return new CarriedState(new Path(base, runDir).toString());
    }

    /** The carried state of one run at {@code root}, relative or absolute. */
    static CarriedState at(String root) {
        return new CarriedState(root);
    }

    /**
     * The name this run's files are stamped with: its {@code held-<run>} directory's. Every binary file of the state
     * carries it, and a reader refuses a file stamped with another, so an older run's files put back under this
     * run's name are analysed again rather than resumed.
     */
    String run() {
        return runOf(root);
    }

    private static String runOf(String root) {
        return new Path(root).getName();
    }

    /** The directory of {@code source}'s held 4-tuples of kind {@code kind}. */
    Path held(EngineCarry.Kind kind, String source) {
        return heldDir(root, kind, source);
    }

    /** The file of {@code source}'s final aggregates. */
    Path finals(String source) {
        return new Path(root, FINAL + "/" + hex(source) + ".agg");
    }

    /** The file of {@code source}'s list of kind {@code kind}. */
    Path tuples(SourceTuples.Kind kind, String source) {
        return new Path(root, kind.dir + "/" + hex(source) + ".keys");
    }

    /**
     * Every file and directory of {@code source} in this run's state, as path prefixes ({@code /}-terminated for a
     * directory), relative when this state's root is.
     */
    List<String> filesOf(String source) {
        List<String> out = new ArrayList<>();
        for (EngineCarry.Kind k : EngineCarry.Kind.values()) {
            out.add(relative(held(k, source)) + "/");
        }
        out.add(relative(finals(source)));
        for (SourceTuples.Kind k : SourceTuples.Kind.values()) {
            out.add(relative(tuples(k, source)));
        }
        return out;
    }

    private static String relative(Path p) {
        return p.toUri().getPath();
    }

    private static Path heldDir(String root, EngineCarry.Kind kind, String source) {
        return new Path(root, kind.dir() + "/" + hex(source));
    }

    /** A source name as one path segment. */
    static String hex(String source) {
        return HexFormat.of().formatHex(source.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The held 4-tuples as {@link HeldState} files: each source's {@code from} the runs before (by source name, each
     * a run's root; a source not in it has none), {@code to} this run's root; {@code reducers}: the analyze shuffle's
     * partition count of this run.
     */
    public record Held(Map<String, String> from, String to, int reducers, SerializableConfiguration conf,
            boolean keepsTuples) implements EngineCarry {
        private static final long serialVersionUID = 1L;

        @Override
        public List<HeldTuple> resumed(Kind kind, int partition, String source) throws IOException {
            String root = from.get(source);
            return root == null ? List.of()
                    : HeldState.read(conf.value(), heldDir(root, kind, source), runOf(root), partition, reducers);
        }

        @Override
        public void held(Kind kind, int partition, String source, List<HeldTuple> tuples) throws IOException {
            if (!tuples.isEmpty()) {
                HeldState.write(conf.value(), new Path(heldDir(to, kind, source), HeldState.fileName(partition)),
                        runOf(to), partition, reducers, tuples);
            }
        }
    }

    /** Every source's held 4-tuples from one run's root ({@code null}: none), for a run that reads every file. */
    public static Map<String, String> allSources(String root) {
        return root == null ? Map.of() : new AllSources(root);
    }

    /** One root for every source. */
    private static final class AllSources extends java.util.AbstractMap<String, String> implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String root;

        AllSources(String root) {
            this.root = root;
        }

        @Override
        public String get(Object key) {
            return root;
        }

        @Override
        public java.util.Set<Entry<String, String>> entrySet() {
            return java.util.Set.of();
        }
    }
}
