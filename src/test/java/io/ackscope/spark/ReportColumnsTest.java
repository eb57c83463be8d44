package io.ackscope.spark;

import io.ackscope.report.Report;
import io.ackscope.tables.CaptureFilesTable;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.FindingsTable;
import io.ackscope.tables.LatencySummaryTable;
import io.ackscope.tables.SourcesTable;
import io.ackscope.tables.TableSchema;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report reads the tables by column name, without Spark; this keeps its list and the schemas analyze writes
 * in step (no Spark session needed). The report's own list is also pinned by a golden file in its tests.
 */
class ReportColumnsTest {

    @Test
    void everyColumnTheReportReadsIsInTheSchemaAnalyzeWrites() {
        List<TableSchema> schemas = new ArrayList<>(EngineTables.ALL);
        schemas.add(CaptureFilesTable.TABLE);
        schemas.add(LatencySummaryTable.TABLE);
        schemas.add(SourcesTable.TABLE);
        schemas.add(FindingsTable.TABLE);
        schemas.addAll(io.ackscope.tables.VantageTables.ALL);
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : Report.columnsRead().entrySet()) {
            TableSchema t = schemas.stream().filter(s -> s.name().equals(e.getKey())).findFirst().orElse(null);
            assertTrue(t != null, "analyze writes no table " + e.getKey());
            for (String c : e.getValue()) {
                if (t.columns().stream().noneMatch(col -> col.name().equals(c))) {
                    missing.add(e.getKey() + "." + c);
                }
            }
        }
        assertEquals(List.of(), missing, "columns the report reads but analyze does not write");
    }
}
