package io.ackscope.lab;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading what the lab's children print, and the verdict on a run. */
class LabFiguresTest {

    /** {@code ackscope load --json} against {@code serve --no-nodelay --split-writes}, as printed on this machine. */
    static final String LOAD_JSON = "{\"url\":\"http://127.0.0.1:38685/\",\"threads\":1,\"connections\":4,"
            + "\"duration_s\":2.000,\"warmup_s\":0.000,\"rate\":null,\"quickack\":false,\"nodelay\":true,"
            + "\"requests\":176,\"failed_requests\":0,\"elapsed_s\":2.001,\"bytes\":198044,\"requests_per_sec\":87.952,"
            + "\"bytes_per_sec\":98968.023,\"connections_opened\":4,\"latency_us\":{\"count\":176,\"mean\":44394.909,"
            + "\"stdev\":8065.293,\"min\":9112,\"max\":84095,\"p50\":44031,\"p75\":44159,\"p90\":47135,\"p99\":83967,"
            + "\"p999\":84095},\"corrected_latency_us\":null,\"req_per_sec_per_thread\":{\"mean\":88.194,"
            + "\"stdev\":15.083,\"max\":119.825},\"errors\":{\"connect\":0,\"read\":1,\"write\":0,\"timeout\":2,"
            + "\"parse\":0,\"status\":3},\"out\":null}";

    @Test
    void readsTheLoadSummaryFromItsJsonLine() throws IOException {
        LoadFigures f = LoadFigures.parse("Running 2s test @ http://127.0.0.1:38685/\n" + LOAD_JSON + "\n");
        assertEquals(new LoadFigures(176, 6, 87.952, 44031, 47135, 83967, 84095), f);
        assertEquals(44.031, f.p50Millis(), 1e-9);
    }

    @Test
    void loadOutputWithoutTheFiguresIsAnError() {
        IOException e = assertThrows(IOException.class,
                () -> LoadFigures.parse(LOAD_JSON.replace("\"p99\":83967,", "")));
        assertTrue(e.getMessage().contains("\"p99\""), e.getMessage());
        assertThrows(IOException.class, () -> LoadFigures.parse("ackscope load: connection refused"));
    }

    @Test
    void readsTheCaptureCountsFromItsSummary() throws IOException {
        String out = "listening on lo, link-type EN10MB (Ethernet), snapshot length 160 bytes\n918 packets captured\n"
                + "1836 packets received by filter\n7 packets dropped by kernel\n";
        assertEquals(new CaptureFigures(918, 7, 11336), CaptureFigures.parse(out, 11336));
        assertThrows(IOException.class, () -> CaptureFigures.parse("listening on lo\n", 0));
    }

    private static Lab.Run run(long loadP50Micros, long stalls, long timerStalls) {
        Setup s = Setup.standard(false).get(0);
        return new Lab.Run(s, 8080, List.of(), null, List.of(), List.of(),
                new LoadFigures(100, 0, 90, loadP50Micros, loadP50Micros, loadP50Micros, loadP50Micros),
                new CaptureFigures(500, 0, 10_000), Path.of(s.captureFile()),
                new StallFigures(4, 1004, 1000, stalls, 0, stalls, 0, timerStalls, -1, -1, -1, -1, -1));
    }

    @Test
    void verdictNeedsLoadAndAnalysisToAgree() {
        // 1000 requests after the first on a connection
        assertEquals(Lab.Verdict.STALL, run(44_000, 1000, 980).verdict());
        assertEquals(Lab.Verdict.NO_STALL, run(90, 0, 0).verdict());
        assertEquals(Lab.Verdict.NO_STALL, run(90, 30, 0).verdict(), "short Nagle waits, no timer");
        assertEquals(Lab.Verdict.NO_STALL, run(90, 3, 1).verdict(), "a starved client met its timer once");
        assertEquals(Lab.Verdict.DISAGREE, run(44_000, 0, 0).verdict(), "slow load, no stall in the capture");
        assertEquals(Lab.Verdict.DISAGREE, run(44_000, 1000, 0).verdict(), "slow load, no timer stall");
        assertEquals(Lab.Verdict.DISAGREE, run(44_000, 1000, 400).verdict(), "slow load, timer stalls on 40%");
        assertEquals(Lab.Verdict.DISAGREE, run(90, 30, 30).verdict(), "fast load, timer stalls on 3%");
        assertEquals(Lab.Verdict.DISAGREE, run(20_000, 0, 0).verdict(), "neither fast nor stalled");
    }
}
