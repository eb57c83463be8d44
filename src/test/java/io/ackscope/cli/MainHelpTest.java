package io.ackscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code ackscope --help} is a short list of the commands; each command's options are behind its own --help. */
class MainHelpTest {

    private static String run(String... args) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        Main.run(args, ps, ps);
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void helpListsEveryCommandOnOneLineEach() {
        List<String> lines = run("--help").lines().toList();
        assertEquals("Usage: ackscope COMMAND [options]", lines.get(0));
        for (String name : Main.commands().keySet()) {
            long matching = lines.stream().filter(l -> l.startsWith("  " + name + " ")).count();
            assertEquals(1, matching, name + " in " + lines);
        }
        assertTrue(lines.size() <= Main.commands().size() + 6, lines.size() + " lines");
        assertTrue(lines.stream().allMatch(l -> l.length() <= 120), "one short line per command");
        assertTrue(lines.contains("  load      HTTP/1.1 keep-alive load generator like wrk; fixed rate with -R like wrk2"),
                lines.toString());
        assertEquals("Run 'ackscope COMMAND --help' for a command's options.", lines.get(lines.size() - 1));
    }

    @Test
    void serveHelpShowsNoDefaultThatContradictsIt() {
        String help = run("serve", "--help");
        int nodelay = help.indexOf("    --nodelay\n");
        assertTrue(nodelay >= 0, help);
        String entry = help.substring(nodelay, help.indexOf("\n    -", nodelay + 5) < 0 ? help.length()
                : help.indexOf("\n    -", nodelay + 5));
        assertFalse(entry.contains("Default: false"), entry);
        int port = help.indexOf("-p, --port");
        String portEntry = help.substring(port, help.indexOf("\n    -", port));
        assertFalse(portEntry.contains("Default"), "a required option has no default: " + portEntry);
    }
}
