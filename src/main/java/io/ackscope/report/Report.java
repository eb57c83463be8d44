package io.ackscope.report;

import io.ackscope.output.OutputMarker;
import io.ackscope.tables.TableFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;

/**
 * The HTML summary report of an {@code analyze} output directory: {@code DIR/report.html}, made from the tables
 * alone (and, for the flow graphs, the capture files if they are still where analyze read them).
 */
public final class Report {
    /** The report's file name inside the output directory. */
    public static final String FILE_NAME = "report.html";

    private Report() {
    }

    /**
     * The data the page shows. Only a complete output is read: its {@code _SUCCESS} parses, names its tables, and
     * each of them is there ({@link OutputMarker#requireComplete}).
     */
    public static ReportData data(Path tablesDir, ReportFilter filter, boolean flowGraphs) throws IOException {
        return data(tablesDir, tablesDir.toString(), filter, flowGraphs);
    }

    /** The data the page shows, naming the tables directory {@code shownAs} (where they are committed to). */
    static ReportData data(Path tablesDir, String shownAs, ReportFilter filter, boolean flowGraphs)
            throws IOException {
        return ReportBuilder.build(files(tablesDir), shownAs, filter, flowGraphs);
    }

    /**
     * The part files of the complete output {@code tablesDir} that the report reads: those its manifest lists (a
     * file put into a table's directory by anything but a commit is not counted), or every part file of an output
     * written before manifests.
     */
    static TableFiles files(Path tablesDir) throws IOException {
        OutputMarker m = OutputMarker.requireComplete(tablesDir);
        return m.hasManifest() ? TableFiles.listed(tablesDir, m.files()) : TableFiles.whole(tablesDir);
    }

    /** The columns the report reads, by table (its whole dependency on the schema analyze writes). */
    public static java.util.Map<String, java.util.List<String>> columnsRead() {
        return Tables.all();
    }

    /** The page for {@code data}. */
    public static String html(ReportData data) {
        return HtmlReport.render(data, Format.time(Instant.now().getEpochSecond() * 1_000_000).replace(".000000", ""),
                Report.class.getPackage().getImplementationVersion());
    }

    /**
     * Writes the report of {@code tablesDir} to {@code out} (replacing it in one step, so a reader never sees half
     * a page).
     *
     * @return the data shown, for a summary line
     */
    public static ReportData write(Path tablesDir, Path out, ReportFilter filter) throws IOException {
        return write(tablesDir, tablesDir.toString(), out, filter);
    }

    /**
     * Writes the report of the tables in {@code tablesDir}, which the page names {@code shownAs}: {@code analyze}
     * makes the report from its staged tables, before it moves them to the output directory.
     */
    public static ReportData write(Path tablesDir, String shownAs, Path out, ReportFilter filter) throws IOException {
        ReportData d = data(tablesDir, shownAs, filter, true);
        write(d, out);
        return d;
    }

    /** Writes the page of {@code d} to {@code out}, replacing it in one step. */
    public static void write(ReportData d, Path out) throws IOException {
        byte[] page = html(d).getBytes(StandardCharsets.UTF_8);
        Path abs = out.toAbsolutePath();
        Path tmp = abs.resolveSibling("." + abs.getFileName() + ".tmp");
        Files.write(tmp, page);
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Why a filtered report would be empty, for the user who asked for it: null when {@code filter} selected some
     * connection (or is no filter at all); otherwise one sentence naming the filter, what the tables hold and, for
     * a server filter, the busiest server endpoints that do exist (at most {@code examples}).
     */
    public static String nothingMatched(Path tablesDir, ReportData d, ReportFilter filter, int examples)
            throws IOException {
        if (filter.isAll() || d.input().selected() > 0) {
            return null;
        }
        StringBuilder b = new StringBuilder("nothing in ").append(tablesDir).append(" matched ")
                .append(filter.describe()).append(" (the tables hold ")
                .append(Format.plural(d.input().connections(), "connection", "connections"));
        if (d.input().firstMicros() != null && d.input().lastMicros() != null) {
            b.append(", captured from ").append(Format.time(d.input().firstMicros())).append(" to ")
                    .append(Format.time(d.input().lastMicros()));
        }
        b.append(')');
        if (!filter.servers().isEmpty()) {
            List<String> known = ReportBuilder.serverEndpoints(files(tablesDir), examples);
            if (!known.isEmpty()) {
                b.append("; server endpoints there, busiest first: ").append(String.join(", ", known));
            }
        }
        return b.toString();
    }
}
