package io.ackscope.report;

import io.ackscope.output.OutputMarker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;

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
        OutputMarker.requireComplete(tablesDir);
        return ReportBuilder.build(tablesDir, shownAs, filter, flowGraphs);
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
        byte[] page = html(d).getBytes(StandardCharsets.UTF_8);
        Path abs = out.toAbsolutePath();
        Path tmp = abs.resolveSibling("." + abs.getFileName() + ".tmp");
        Files.write(tmp, page);
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return d;
    }
}
