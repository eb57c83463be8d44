package io.ackscope.spark.engine;

import io.ackscope.spark.source.CaptureFile;
import io.ackscope.spark.source.ReadPlan;
import io.ackscope.spark.source.SplitStats;

import io.ackscope.capture.Archive;
import io.ackscope.capture.FileGap;
import io.ackscope.tables.RowBuffer;
import io.ackscope.tables.SourcesTable;

import java.util.ArrayList;
import java.util.List;

/** How the read plan and the numbering of each capture source become its row of {@link SourcesTable}. */
public final class SourceRows {
    private SourceRows() {
    }

    /**
     * What a source's row sums over its files, kept in the output's state so that a run appending files to the source
     * adds to it ({@link io.ackscope.spark.carry.InputsState}).
     *
     * @param first the earliest record time ({@link Long#MAX_VALUE} when none)
     * @param last  the latest record time ({@link Long#MIN_VALUE} when none)
     */
    public record Totals(int files, long fileBytes, long frames, long captured, long first, long last, int overlapping,
                  long duplicates) implements java.io.Serializable {
        static final Totals NONE = new Totals(0, 0, 0, 0, Long.MAX_VALUE, Long.MIN_VALUE, 0, 0);
    }

    /** The rows, in source order. */
    public static List<RowBuffer> rows(ReadPlan plan, List<SplitStats> perFile, ArchiveNumbering numbering) {
        return rows(plan, numbering, totals(plan, perFile, numbering, java.util.Map.of()));
    }

    /**
     * Each source's totals over the files of {@code plan}, added to those of the files analysed before
     * ({@code before}, by source name; a source not in it had none), in source order.
     */
    public static List<Totals> totals(ReadPlan plan, List<SplitStats> perFile, ArchiveNumbering numbering,
                               java.util.Map<String, Totals> before) {
        List<String> names = plan.sources();
        List<Totals> out = new ArrayList<>();
        for (int s = 0; s < names.size(); s++) {
            Totals t = before.getOrDefault(names.get(s), Totals.NONE);
            int files = t.files(), overlapping = t.overlapping();
            long fileBytes = t.fileBytes(), frames = t.frames(), captured = t.captured(), duplicates = t.duplicates();
            long first = t.first(), last = t.last();
            for (CaptureFile f : plan.files()) {
                if (f.source() != s) {
                    continue;
                }
                files++;
                fileBytes += f.length();
                long dups = numbering.frames(f.index()).duplicates().length;
                duplicates += dups;
                overlapping += dups > 0 ? 1 : 0;
                SplitStats st = perFile.get(f.index());
                if (st != null) {
                    frames += st.frames().frames() - dups;
                    captured += st.capturedBytes();
                    first = Math.min(first, st.firstNanos());
                    last = Math.max(last, st.lastNanos());
                }
            }
            out.add(new Totals(files, fileBytes, frames, captured, first, last, overlapping, duplicates));
        }
        return out;
    }

    /** The rows of {@code totals} ({@link #totals}), in source order. */
    public static List<RowBuffer> rows(ReadPlan plan, ArchiveNumbering numbering, List<Totals> totals) {
        List<String> names = plan.sources();
        List<RowBuffer> out = new ArrayList<>();
        for (int s = 0; s < names.size(); s++) {
            Totals t = totals.get(s);
            List<FileGap> gaps = numbering.gaps(s);
            List<String> copies = new ArrayList<>();
            if (plan.archive() != null) {
                for (Archive.Copy c : plan.archive().copies()) {
                    if (c.source() == s) {
                        copies.add(c.path() + " = " + c.of());
                    }
                }
            }
            RowBuffer r = new RowBuffer(SourcesTable.TABLE).clear();
            r.setString(0, names.get(s)).setInt(1, t.files()).setLong(2, t.fileBytes()).setLong(3, t.frames())
                    .setLong(4, t.captured());
            if (t.first() <= t.last()) {
                r.setTimestampNanos(5, t.first()).setTimestampNanos(6, t.last());
            }
            r.setInt(7, gaps.size()).setIntList(8, gaps.stream().mapToInt(FileGap::afterFile).toArray())
                    .setLongList(9, gaps.stream().mapToLong(g -> g.nanos() / 1000).toArray())
                    .setInt(10, t.overlapping()).setLong(11, t.duplicates()).setInt(12, copies.size())
                    .setStringList(13, copies);
            out.add(r);
        }
        return out;
    }
}
