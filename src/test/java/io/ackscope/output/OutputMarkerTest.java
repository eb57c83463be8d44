package io.ackscope.output;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code _SUCCESS} marker: what parses, what an output's own entries are, what is refused. */
class OutputMarkerTest {
    static final String SUMMARY = "{\"tool\":\"ackscope\",\"command\":\"analyze\",\"frames\":42,"
            + "\"tables\":{\"connections\":3,\"stalls\":0}}";

    @Test
    void theManifestNamesTheOutputsOwnEntries() throws Exception {
        String text = OutputMarker.withFiles(SUMMARY, List.of("connections/part-0.parquet", "connections/_SUCCESS",
                "stalls/part-0.parquet", "report.html"));
        assertTrue(text.endsWith("}\n"), text);
        OutputMarker m = OutputMarker.parse(text, "m");
        assertEquals(42, m.number("frames"));
        assertEquals(3L, m.tables().get("connections"));
        assertEquals(Set.of("connections", "stalls", "report.html"), m.entries());
        assertTrue(m.hasManifest());
    }

    @Test
    void theManifestKeepsTheSummarysCountOfCaptureFiles() throws Exception {
        String text = OutputMarker.withFiles("{\"tool\":\"ackscope\",\"command\":\"analyze\",\"files\":1,"
                + "\"tables\":{\"connections\":21}}", List.of("connections/part-0.parquet"));
        OutputMarker m = OutputMarker.parse(text, "m");
        assertEquals(1, m.number("files"), text);
        assertEquals(Set.of("connections"), m.entries());
    }

    @Test
    void aMarkerOfAnEarlierVersionIsReadAsOneWithoutManifest() throws Exception {
        // _SUCCESS as analyze wrote it before the manifest: "files" is the number of captures read
        OutputMarker m = OutputMarker.parse("{\"tool\":\"ackscope\",\"command\":\"analyze\",\"files\":1,"
                + "\"frames\":6826,\"tables\":{\"connections\":21,\"stalls\":1320},\"damaged_files\":0}\n",
                "old");
        assertFalse(m.hasManifest());
        assertEquals(Set.of("connections", "stalls", "report.html"), m.entries());
    }

    @Test
    void aMarkerWithoutManifestOwnsItsTablesAndTheReport() throws Exception {
        OutputMarker m = OutputMarker.parse(SUMMARY + "\n", "old");
        assertFalse(m.hasManifest());
        assertEquals(Set.of("connections", "stalls", "report.html"), m.entries());
    }

    @Test
    void refusesMarkersThatAreEmptyForeignOrNameUnsafePaths() {
        for (String[] bad : new String[][]{
                {"", "m is empty"},
                {"  \n", "m is empty"},
                {"{\"tool\":\"ackscope\",\"tables\":{\"a\":1}", "m is not JSON"},
                {"[1]", "m was not written by ackscope"},
                {"{\"tool\":\"spark\",\"tables\":{\"a\":1}}", "m was not written by ackscope"},
                {"{\"tool\":\"ackscope\"}", "m names no tables"},
                {"{\"tool\":\"ackscope\",\"tables\":{\"../a\":1}}", "m has a bad table entry: ../a"},
                {"{\"tool\":\"ackscope\",\"tables\":{\"a\":\"x\"}}", "m has a bad table entry: a"},
                {"{\"tool\":\"ackscope\",\"tables\":{\"a\":1},\"output_files\":[\"../etc/passwd\"]}",
                        "m lists a bad file name: \"../etc/passwd\""},
                {"{\"tool\":\"ackscope\",\"tables\":{\"a\":1},\"output_files\":[\"/etc/passwd\"]}",
                        "m lists a bad file name: \"/etc/passwd\""},
                {"{\"tool\":\"ackscope\",\"tables\":{\"a\":1},\"output_files\":[\"_SUCCESS\"]}",
                        "m lists a bad file name: \"_SUCCESS\""},
                {"{\"tool\":\"ackscope\",\"tables\":{\"a\":1},\"output_files\":\"a\"}", "m has a bad file list"}}) {
            OutputMarker.Invalid e = assertThrows(OutputMarker.Invalid.class, () -> OutputMarker.parse(bad[0], "m"),
                    bad[0]);
            assertTrue(e.getMessage().startsWith(bad[1]), bad[0] + ": " + e.getMessage());
        }
    }
}
