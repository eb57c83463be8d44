package io.ackscope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * {@code analyze --watch}'s usage errors, found before Spark starts and before anything is created: an input that
 * is a file, a checkpoint where the stream would list it or a commit would replace it, {@code --overwrite}.
 */
class AnalyzeWatchUsageTest {
    @TempDir
    Path tmp;

    private AnalyzeExitCodesTest.Run watch(String... args) throws Exception {
        Files.createDirectories(tmp.resolve("in/sensor1"));
        String[] all = new String[args.length + 2];
        all[0] = "analyze";
        all[1] = "--watch";
        System.arraycopy(args, 0, all, 2, args.length);
        return AnalyzeExitCodesTest.run(all);
    }

    @Test
    void anInputThatIsAFileIsRefused() throws Exception {
        Path file = Files.createDirectories(tmp.resolve("in")).resolve("one.pcap");
        Files.write(file, new byte[24]);
        AnalyzeExitCodesTest.Run r = watch(file.toString(), "--out", tmp.resolve("out").toString());
        assertEquals(2, r.exit(), r.err());
        assertEquals("ackscope analyze: --watch: input " + file + " is a file; new captures arrive in a directory: "
                + "watch the directory it is in\n", r.err());
    }

    @Test
    void aCheckpointInsideAnInputIsRefused() throws Exception {
        Path ck = tmp.resolve("in/sensor1/ck");
        AnalyzeExitCodesTest.Run r = watch(tmp.resolve("in").toString(), "--out", tmp.resolve("out").toString(),
                "--checkpoint", ck.toString());
        assertEquals(2, r.exit(), r.err());
        assertEquals("ackscope analyze: --checkpoint " + ck + " and input " + tmp.resolve("in") + " overlap: the "
                + "stream would list its own checkpoint as captures\n", r.err());
        assertFalse(Files.exists(ck));
        assertFalse(Files.exists(tmp.resolve("out")));
    }

    @Test
    void aCheckpointInATableDirectoryOrInAckscopesStateIsRefused() throws Exception {
        Path out = tmp.resolve("out");
        for (String inside : new String[] {"connections/ck", "_ackscope_state", "ck", "_SUCCESS"}) {
            AnalyzeExitCodesTest.Run r = watch(tmp.resolve("in").toString(), "--out", out.toString(),
                    "--checkpoint", out.resolve(inside).toString());
            assertEquals(2, r.exit(), inside + ": " + r.err());
            assertEquals("ackscope analyze: --checkpoint " + out.resolve(inside) + " lies inside the output " + out
                    + " where commits replace what they find; inside it, use a direct child named _something, such "
                    + "as the default _ackscope_checkpoint\n", r.err(), inside);
        }
        assertFalse(Files.exists(out));
    }

    @Test
    void theWatchsOptionsWithoutWatchAreRefused() {
        AnalyzeExitCodesTest.Run r = AnalyzeExitCodesTest.run("analyze", tmp.toString(), "--out",
                tmp.resolve("out").toString(), "--stop-after", "10s");
        assertEquals(2, r.exit(), r.err());
        assertEquals("ackscope analyze: --stop-after goes with --watch\n", r.err());
        assertFalse(Files.exists(tmp.resolve("out")));
    }

    @Test
    void overwriteIsRefused() throws Exception {
        AnalyzeExitCodesTest.Run r = watch(tmp.resolve("in").toString(), "--out", tmp.resolve("out").toString(),
                "--overwrite");
        assertEquals(2, r.exit(), r.err());
        assertEquals("ackscope analyze: --watch adds to --out incrementally; it does not take --overwrite\n", r.err());
    }
}
