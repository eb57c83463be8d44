package io.ackscope.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ackscope lab}'s arguments (the lab itself: io.ackscope.lab.LabEndToEndTest). */
class LabCommandTest {

    /** Runs ackscope; returns the exit code, standard output and standard error (VantageCommandTest uses it too). */
    static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {Integer.toString(rc), out.toString(StandardCharsets.UTF_8),
            err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void helpListsTheLabsOptions() {
        String[] r = run("lab", "--help");
        assertEquals("0", r[0]);
        for (String option : new String[] {"--out", "--analysis", "--duration", "--nginx", "--only", "--port-base"}) {
            assertTrue(r[1].contains(option), r[1]);
        }
    }

    @Test
    void badValuesAreRefusedBeforeAnythingStarts() {
        // usage errors, as every command's out-of-range values are (README, exit codes)
        String[] nginx = run("lab", "--nginx", "maybe");
        assertEquals("2", nginx[0]);
        assertTrue(nginx[2].contains("--nginx takes auto, yes or no, not maybe"), nginx[2]);
        String[] only = run("lab", "--only", "serve-nagle,bogus");
        assertEquals("2", only[0]);
        assertTrue(only[2].contains("no configuration bogus; there are [serve-nagle, "), only[2]);
        String[] duration = run("lab", "-d", "20m");
        assertEquals("2", duration[0]);
        assertTrue(duration[2].contains("duration must be 100ms to 10m"), duration[2]);
        assertEquals("", only[1] + nginx[1] + duration[1], "nothing started, nothing printed");
        String[] unknown = run("lab", "--bogus");
        assertEquals("2", unknown[0]);
    }
}
