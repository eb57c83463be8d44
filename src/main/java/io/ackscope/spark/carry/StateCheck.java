package io.ackscope.spark.carry;

import io.ackscope.spark.engine.ArchiveNumbering;
import io.ackscope.spark.engine.SourceRows;

import java.util.HashMap;
import java.util.Map;

/**
 * The carried state of an incremental output ({@code inputs.json}) checked as input: every value is in the range
 * the files it describes allow, so that a damaged or edited state is found before a run continues from it (a
 * stream counter below zero or beyond the frames, a time in the future, a file numbered beyond its source, the
 * held state of a run that did not analyse the source last, a path outside the output). The first problem found
 * is returned as text; the run then analyses everything again and says why.
 */
final class StateCheck {
    private StateCheck() {
    }

    /** Times up to this far past the clock are allowed (clocks of capture hosts and of this host differ). */
    static final long FUTURE_SLACK_NANOS = 24L * 3600 * 1_000_000_000L;

    /** The first problem of {@code files} and {@code sources} (by name), null when there is none. */
    static String problem(Map<String, InputsState.Input> files, Map<String, InputsState.Source> sources,
                          long nowMillis) {
        long latest = Math.multiplyExact(nowMillis, 1_000_000L) + FUTURE_SLACK_NANOS;
        Map<String, InputsState.Input> lastOfSource = new HashMap<>();
        for (InputsState.Input i : files.values()) {
            String where = "file " + i.path();
            if (i.path().isEmpty() || i.run().isEmpty()) {
                return where + " has no path or run";
            }
            if (i.fileIndex() < 0 || i.frames() < 0 || i.fingerprint().size() < 0) {
                return where + " has a negative index, frame count or size";
            }
            String time = times(i.firstNanos(), i.lastNanos(), latest);
            if (time != null) {
                return where + " has " + time;
            }
            InputsState.Source s = sources.get(i.source());
            if (!sources.isEmpty() && s == null) {
                return where + " belongs to no source of the state (" + i.source() + ")";
            }
            if (s != null && i.fileIndex() >= s.totals().files()) {
                return where + " is numbered " + i.fileIndex() + " of the " + s.totals().files() + " files of its "
                        + "source";
            }
            lastOfSource.merge(i.source(), i, (a, b) -> b.fileIndex() > a.fileIndex() ? b : a);
        }
        for (Map.Entry<String, InputsState.Source> e : sources.entrySet()) {
            String where = "source " + e.getKey();
            InputsState.Source s = e.getValue();
            SourceRows.Totals t = s.totals();
            ArchiveNumbering.Start st = s.start();
            if (t.files() < 0 || t.frames() < 0 || t.fileBytes() < 0 || t.duplicates() < 0 || t.duplicates() > t.frames()) {
                return where + " has a negative or impossible count of files, frames or duplicates";
            }
            if (st.connections() < 0 || st.connections() > t.frames()) {
                return where + " counts " + st.connections() + " connections (stream numbers) in " + t.frames()
                        + " frames";
            }
            if (st.frameBase() < 0 || st.frameBase() > t.frames() || st.maxStep() < 0) {
                return where + " goes on from frame " + st.frameBase() + " of " + t.frames()
                        + " (or has a negative step)";
            }
            String time = times(t.first() == Long.MAX_VALUE ? Long.MIN_VALUE : t.first(), t.last(), latest);
            if (time == null && st.lastRecord() != Long.MIN_VALUE && st.lastRecord() > latest) {
                time = "a last record in the future (" + java.time.Instant.ofEpochSecond(0, st.lastRecord()) + ")";
            }
            if (time != null) {
                return where + " has " + time;
            }
            if (s.held() != null) {
                String held = heldProblem(s.held(), lastOfSource.get(e.getKey()));
                if (held != null) {
                    return where + ": " + held;
                }
            }
        }
        return null;
    }

    /** Why a first/last time pair is out of range (null: it is not); {@link Long#MIN_VALUE} is "none". */
    private static String times(long first, long last, long latest) {
        if (first != Long.MIN_VALUE && first < 0 || last != Long.MIN_VALUE && last < 0) {
            return "a time before 1970";
        }
        if (first != Long.MIN_VALUE && last != Long.MIN_VALUE && first > last) {
            return "a first time after its last";
        }
        long max = Math.max(first, last);
        if (max != Long.MIN_VALUE && max > latest) {
            return "a time in the future (" + java.time.Instant.ofEpochSecond(0, max) + ")";
        }
        return null;
    }

    /**
     * Why a source's held directory cannot be used: it must be {@code _ackscope_state/held-RUN}, inside the output,
     * where RUN analysed the source's last file.
     */
    private static String heldProblem(String held, InputsState.Input last) {
        String prefix = CarriedState.runDir("");
        if (!held.startsWith(prefix) || held.indexOf('/', prefix.length()) >= 0 || held.contains("..")
                || held.contains("\\") || held.contains(":")) {
            return "its held state " + held + " is not a directory of the output's state";
        }
        if (last != null && !held.equals(CarriedState.runDir(last.run()))) {
            return "its held state " + held + " is not that of the run that analysed its last file ("
                    + last.run() + ")";
        }
        return null;
    }
}
