package io.ackscope.spark;

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
final class SourceRows {
    private SourceRows() {
    }

    /** The rows, in source order. */
    static List<RowBuffer> rows(ReadPlan plan, List<SplitStats> perFile, ArchiveNumbering numbering) {
        List<String> names = plan.sources();
        List<RowBuffer> out = new ArrayList<>();
        for (int s = 0; s < names.size(); s++) {
            int files = 0, overlapping = 0;
            long fileBytes = 0, frames = 0, captured = 0, duplicates = 0;
            long first = Long.MAX_VALUE, last = Long.MIN_VALUE;
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
            r.setString(0, names.get(s)).setInt(1, files).setLong(2, fileBytes).setLong(3, frames)
                    .setLong(4, captured);
            if (first <= last) {
                r.setTimestampNanos(5, first).setTimestampNanos(6, last);
            }
            r.setInt(7, gaps.size()).setIntList(8, gaps.stream().mapToInt(g -> numbering.fileInSource(g.afterFile())).toArray())
                    .setLongList(9, gaps.stream().mapToLong(g -> g.nanos() / 1000).toArray())
                    .setInt(10, overlapping).setLong(11, duplicates).setInt(12, copies.size())
                    .setStringList(13, copies);
            out.add(r);
        }
        return out;
    }
}
