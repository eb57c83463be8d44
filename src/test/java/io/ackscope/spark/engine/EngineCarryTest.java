package io.ackscope.spark.engine;

import io.ackscope.spark.carry.CarriedState;
import io.ackscope.spark.commit.TaskOutput;
import io.ackscope.capture.Archive;
import io.ackscope.capture.ArchiveStore;
import io.ackscope.capture.RotatedArchive;
import io.ackscope.spark.source.CaptureFile;
import io.ackscope.spark.source.FilePlan;
import io.ackscope.spark.source.ReadPlan;
import io.ackscope.spark.source.SegmentRows;
import io.ackscope.spark.source.SegmentRowsFixture;
import io.ackscope.spark.source.SplitStats;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.util.SerializableConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link EngineTask} with an {@link EngineCarry}, without the rest of the pipeline: a capture cut into files, the
 * shuffle emulated (rows grouped by {@link SegmentShuffle#reducerOf}, in file order), run once over all files, and
 * as one run per file, each resuming what the one before held. Pass 1 of the runs finds each connection once; pass
 * 2's tables of the runs, less each run's provisional rows (those of connections a later run carried, which it gives
 * again), equal the single run's row for row.
 */
class EngineCarryTest {
    private static final int REDUCERS = 3;
    private static final Configuration CONF = new Configuration();

    @TempDir
    Path dir;

    @Test
    void runsCarryingOpenConnectionsGiveTheOneRunsTables() throws Exception {
        assertRunsEqualOneRun("lab-nginx-nodelay-off.pcap.gz", 2);
        assertRunsEqualOneRun("lab-cause-churn.pcap.gz", 3);
    }

    /**
     * Cuts {@code sample} into {@code n} files and compares one run over all with {@code n} runs, one file each, each
     * resuming what the one before held.
     */
    private void assertRunsEqualOneRun(String sample, int n) throws Exception {
        Path base = Files.createDirectories(dir.resolve(sample));
        RotatedArchive capture = RotatedArchive.read(Path.of("sample-pcaps", sample));
        Path src = Files.createDirectories(base.resolve("in/src"));
        List<int[]> pieces = capture.pieces(n);
        for (int i = 0; i < pieces.size(); i++) {
            Files.write(src.resolve("cap" + i + ".pcap"), capture.file(pieces.get(i)[0], pieces.get(i)[1]));
        }
        Archive a = Archive.list(List.of(base.resolve("in").toString()), ArchiveStore.local(),
                Archive.SourceRule.DIRECTORY);
        assertEquals(n, a.files().size());
        List<CaptureFile> files = new ArrayList<>();
        List<FilePlan> filePlans = new ArrayList<>();
        List<SplitStats> stats = new ArrayList<>();
        List<List<List<InternalRow>>> rows = new ArrayList<>();     // [file][partition]
        for (Archive.Member m : a.files()) {
            files.add(new CaptureFile(m.index(), m.path(), m.length(), new String[0], m.source(),
                    a.sources().get(m.source())));
            filePlans.add(new FilePlan(1, null));
            SplitStats s = new SplitStats(m.index(), 0);
            List<List<InternalRow>> parts = new ArrayList<>();
            for (int p = 0; p < REDUCERS; p++) {
                parts.add(new ArrayList<>());
            }
            for (InternalRow r : SegmentRowsFixture.rows(Path.of(m.path()), m.index(), s)) {
                parts.get(SegmentShuffle.reducerOf(r.getLong(SegmentRows.KEY), REDUCERS)).add(r);
            }
            stats.add(s);
            rows.add(parts);
        }
        ArchiveNumbering numbering = ArchiveNumbering.of(new ReadPlan(files, filePlans, List.of(), a), stats,
                new long[n][]);

        // one run over every file
        long[][] keys = new long[REDUCERS][];
        long[][] revived = new long[REDUCERS][];
        for (int p = 0; p < REDUCERS; p++) {
            List<InternalRow> all = new ArrayList<>();
            for (List<List<InternalRow>> f : rows) {
                all.addAll(f.get(p));
            }
            EngineTask.Pass1 r = EngineTask.connectionKeys(all.iterator(), numbering);
            keys[p] = r.keys();
            revived[p] = r.revived();
        }
        long[] ranks = merged(keys);
        ArchiveNumbering ranked = numbering.ranked(ranks);
        List<TaskOutput.Written> one = pass2(p -> rows.stream().flatMap(f -> f.get(p).stream()).toList(), ranks,
                merged(revived), ranked, base.resolve("one"), EngineCarry.NONE);

        // n runs, run i over file i, resuming what run i - 1 held
        SerializableConfiguration conf = new SerializableConfiguration(CONF);
        List<long[]> runKeys = new ArrayList<>();
        List<List<TaskOutput.Written>> runs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            EngineCarry carry = new CarriedState.Held(
                    CarriedState.allSources(i == 0 ? null : base.resolve("state" + (i - 1)).toString()),
                    base.resolve("state" + i).toString(), REDUCERS, conf, false);
            long[][] revivedHere = new long[REDUCERS][];
            for (int p = 0; p < REDUCERS; p++) {
                EngineTask.Pass1 r = EngineTask.connectionKeys(rows.get(i).get(p).iterator(), numbering, p, carry);
                runKeys.add(r.keys());
                revivedHere[p] = r.revived();
            }
            // a run's new connections start in its file, after every earlier one's: the one run's ranks number all
            int file = i;
            runs.add(pass2(p -> rows.get(file).get(p), ranks, merged(revivedHere), ranked,
                    base.resolve("run" + i), carry));
        }
        assertArrayEquals(ranks, merged(runKeys.toArray(long[][]::new)),
                sample + ": each connection numbered once, by the run it starts in");

        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            long carried = 0;
            for (int i = 1; i < n; i++) {
                carried += count(st, "SELECT count(*) FROM " + scan(runs.get(i), "connections") + " WHERE stream IN"
                        + " (SELECT stream FROM " + scan(runs.get(i - 1), "connections") + ")");
            }
            assertTrue(carried > 0, sample + ": connections carried from a run into the next");
            for (String table : List.of("connections", "rtt_samples", "ack_delays", "stalls", "latency_events",
                    "exchanges")) {
                // a run's provisional rows: a carried connection's record and its exchange in progress, which a
                // later run gives again
                String key = table.equals("connections") ? "stream" : table.equals("exchanges")
                        ? "(stream, exchange_index)" : null;
                List<String> kept = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    String rel = scan(runs.get(i), table);
                    for (int later = i + 1; key != null && later < n; later++) {
                        rel = "(SELECT * FROM " + rel + " WHERE " + key + " NOT IN (SELECT " + key + " FROM "
                                + scan(runs.get(later), table) + "))";
                    }
                    kept.add("SELECT * FROM " + rel);
                }
                String together = "(" + String.join(" UNION ALL ", kept) + ")";
                String whole = scan(one, table);
                long rowsOne = count(st, "SELECT count(*) FROM " + whole);
                String what = sample + " in " + n + " runs, " + table;
                assertEquals(0, count(st, "SELECT count(*) FROM (SELECT * FROM " + whole + " EXCEPT ALL SELECT * FROM "
                        + together + ")"), what + ": rows of the one run missing from the runs' (of " + rowsOne + ")");
                assertEquals(0, count(st, "SELECT count(*) FROM (SELECT * FROM " + together + " EXCEPT ALL SELECT * FROM "
                        + whole + ")"), what + ": rows of the runs not in the one run's (of " + rowsOne + ")");
                assertTrue(rowsOne > 0 || table.equals("stalls") || table.equals("latency_events"), what);
            }
        }
    }

    private static long[] merged(long[][] parts) {
        return Arrays.stream(parts).flatMapToLong(LongStream::of).sorted().toArray();
    }

    private static List<TaskOutput.Written> pass2(java.util.function.IntFunction<List<InternalRow>> rows, long[] ranks,
                                                  long[] revived, ArchiveNumbering ranked, Path staging,
                                                  EngineCarry carry) {
        List<TaskOutput.Written> out = new ArrayList<>();
        for (int p = 0; p < REDUCERS; p++) {
            out.addAll(EngineTask.write(p, p, rows.apply(p).iterator(), ranks, revived, ranked, null,
                    staging.toString(), CONF, carry).files());
        }
        return out;
    }

    /** The files of {@code table} as a DuckDB relation (an empty one when no task wrote it). */
    private static String scan(List<TaskOutput.Written> files, String table) {
        List<String> paths = files.stream().filter(w -> w.table().equals(table)).map(w -> "'" + w.path() + "'")
                .toList();
        return paths.isEmpty() ? "(SELECT 1 AS stream, 1 AS exchange_index WHERE false)"
                : "read_parquet([" + String.join(", ", paths) + "])";
    }

    private static long count(Statement st, String sql) throws Exception {
        try (ResultSet r = st.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }
}
