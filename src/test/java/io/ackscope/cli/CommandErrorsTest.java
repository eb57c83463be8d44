package io.ackscope.cli;

import io.ackscope.capture.Fifos;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a user sees when something is wrong: one line naming the file, offset or option, escaped for the terminal,
 * and the same exit codes from every command (README, "Inputs, errors and exit codes").
 */
class CommandErrorsTest {

    @TempDir
    Path tmp;

    private static final Path SAMPLE = Path.of("sample-pcaps", "nginx-nodelay-off.pcap.gz");

    private record Run(int exit, String out, String err) {
    }

    private static Run main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Runs one of the capture commands in-process with its output captured ({@link Main} does not redirect it). */
    private static Run capture(String command, String file, String... more) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        List<String> args = new ArrayList<>(Arrays.asList(more));
        int exit;
        switch (command) {
            case "info" -> {
                InfoCommand c = new InfoCommand();
                args.add(file);
                com.beust.jcommander.JCommander.newBuilder().addObject(c).build().parse(args.toArray(new String[0]));
                exit = c.run(o, e);
            }
            case "fields" -> exit = parsed(new FieldsCommand(o, e), file, args).run();
            case "conv" -> exit = parsed(new ConvCommand(o, e), file, args).run();
            case "diagnose" -> exit = parsed(new DiagnoseCommand(o, e), file, args).run();
            default -> throw new IllegalArgumentException(command);
        }
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Command parsed(Command c, String file, List<String> args) {
        List<String> a = new ArrayList<>(List.of("-r", file));
        a.addAll(args);
        com.beust.jcommander.JCommander.newBuilder().addObject(c).build().parse(a.toArray(new String[0]));
        return c;
    }

    @Test
    void aMissingCaptureIsOneLineNamingItAndExitsOne() {
        Run r = main("conv", "-r", "/nonexistent.pcap");
        assertEquals(1, r.exit());
        assertEquals("ackscope conv: /nonexistent.pcap: no such file\n", r.err());
        for (String command : new String[] {"fields", "diagnose"}) {
            Run o = main(command, "-r", "/nonexistent.pcap");
            assertEquals("ackscope " + command + ": /nonexistent.pcap: no such file\n", o.err());
            assertEquals(1, o.exit());
        }
    }

    /** A mistyped flag is a usage error naming it, never read as a file; {@code --} still lets a dash file in. */
    @Test
    void unknownFlagsAreUsageErrorsNamingTheFlag() {
        Run info = main("info", "--bogus", SAMPLE.toString());
        assertEquals(2, info.exit());
        assertTrue(info.err().startsWith("ackscope info: unknown option '--bogus'"), info.err());
        Run conv = main("conv", "-x", "-r", SAMPLE.toString());
        assertEquals(2, conv.exit());
        assertTrue(conv.err().startsWith("ackscope conv: unknown option '-x'\n"), conv.err());
        Run analyze = main("analyze", SAMPLE.toString(), "--ovewrite", "--out", tmp.resolve("o").toString());
        assertEquals(2, analyze.exit());
        assertTrue(analyze.err().startsWith("ackscope analyze: unknown option '--ovewrite'"), analyze.err());
        assertFalse(Files.exists(tmp.resolve("o")), "nothing ran");
        Run serve = main("serve", "extra");
        assertEquals(2, serve.exit());
        assertTrue(serve.err().startsWith("ackscope serve: unexpected argument 'extra'\n"), serve.err());
        Run dashed = main("info", "--", "-no-such.pcap");
        assertEquals(1, dashed.exit(), dashed.err()); // read as a file (info prints it on the JVM's own streams)
        assertFalse(dashed.err().contains("unknown option"), dashed.err());
    }

    @Test
    void aDirectoryIsRefusedWithAHint() throws Exception {
        String want = ": sample-pcaps: is a directory (give capture files, or use analyze for directories)\n";
        Run info = capture("info", "sample-pcaps");
        assertEquals(1, info.exit());
        assertEquals("ackscope info" + want, info.err());
        // conv and diagnose read directories as analyze does (capture sources); fields reads one capture
        Run fields = main("fields", "-r", "sample-pcaps");
        assertEquals(1, fields.exit());
        assertEquals("ackscope fields" + want, fields.err());
    }

    @Test
    void aCutShortCaptureIsReportedAlikeByEveryCommandAndExitsThreeOnlyUnderStrict() throws Exception {
        Path cut = tmp.resolve("cut.pcap.gz");
        Files.write(cut, Arrays.copyOf(Files.readAllBytes(SAMPLE), 100_000));
        for (String command : new String[] {"info", "fields", "conv", "diagnose"}) {
            Run r = capture(command, cut.toString());
            assertEquals(0, r.exit(), command + ": " + r.err());
            List<String> lines = r.err().lines().toList();
            assertEquals(1, lines.size(), command + ": " + r.err());
            assertTrue(lines.get(0).matches("ackscope " + command + ": " + java.util.regex.Pattern.quote(cut.toString())
                    + ": byte \\d+: gzip data cut short at compressed byte 100000 \\(decompressed byte \\d+\\) "
                    + "\\(.*\\)"), lines.get(0));
            assertEquals(3, capture(command, cut.toString(), "--strict").exit(), command + " --strict");
        }
        // not a capture at all: nothing could be read, whatever --strict says
        Path text = Files.writeString(tmp.resolve("notes.txt"), "GET / HTTP/1.1\r\n");
        // (in-process, so that the command's own error stream is captured: a file is read as part of an archive now)
        Run conv = capture("conv", text.toString());
        assertEquals(3, conv.exit());
        assertTrue(conv.err().startsWith("ackscope conv: " + text + ": byte 0: unknown magic 47455420 "), conv.err());
    }

    @Test
    void rangeErrorsNameTheOptionAndAreUsageErrors() {
        Run load = main("load", "-c", "0", "http://127.0.0.1:9/");
        assertEquals(2, load.exit());
        assertTrue(load.err().startsWith("ackscope load: -c must be >= 1, got 0\n"), load.err());
        Run many = main("load", "-c", "100000", "http://127.0.0.1:9/");
        assertEquals(2, many.exit());
        assertTrue(many.err().startsWith("ackscope load: -c must be <= 10000, got 100000\n"), many.err());
        Run top = main("diagnose", "--top", "0", "-r", SAMPLE.toString());
        assertEquals(2, top.exit());
        assertTrue(top.err().startsWith("ackscope diagnose: --top must be >= 1, got 0\n"), top.err());
        Run serve = main("serve", "-p", "99999");
        assertEquals(2, serve.exit());
        assertTrue(serve.err().startsWith("ackscope serve: -p must be <= 65535, got 99999\n"), serve.err());
        Run port = main("probe", "-p", "70000", "127.0.0.1");
        assertEquals(2, port.exit());
        assertTrue(port.err().startsWith("ackscope probe: -p must be <= 65535, got 70000\n"), port.err());
    }

    @Test
    void loadRefusesAnOutputItCouldNotWriteBeforeItRuns() {
        Path missing = tmp.resolve("no-such-folder").resolve("requests.parquet");
        Run r = main("load", "http://127.0.0.1:9/", "-d", "1h", "--out", missing.toString());
        assertEquals(2, r.exit());
        assertEquals("ackscope load: --out " + missing + ": folder " + missing.getParent() + " does not exist\n",
                r.err());
        Run folder = main("load", "http://127.0.0.1:9/", "-d", "1h", "--out", tmp.toString());
        assertEquals(2, folder.exit());
        assertEquals("ackscope load: --out " + tmp + ": is a folder; give a file name\n", folder.err());
    }

    @Test
    void captureErrorsNameTheInterfaceFilterOrFile() {
        Path missing = tmp.resolve("no-such-folder").resolve("x.pcap");
        Run folder = main("capture", "-i", "lo", "-w", missing.toString(), "-c", "1");
        assertEquals(2, folder.exit());
        assertEquals("ackscope capture: -w " + missing + ": folder " + missing.getParent() + " does not exist\n",
                folder.err());
        Path out = tmp.resolve("x.pcap");
        Run device = main("capture", "-i", "nosuch\u001b0", "-w", out.toString(), "-c", "1");
        assertEquals(1, device.exit());
        assertTrue(device.err().startsWith("ackscope capture: interface nosuch\\x1b0: "), device.err());
        Run filter = main("capture", "-i", "lo", "-w", out.toString(), "-c", "1", "tcp", "port", "bogus");
        assertEquals(1, filter.exit());
        assertTrue(filter.err().startsWith("ackscope capture: filter 'tcp port bogus': "), filter.err());
    }

    @Test
    void controlCharactersInNamesReachTheTerminalEscaped() throws Exception {
        String evil = "evil\u001b]0;owned\u0007\u001b[31m.pcap";
        Run missing = main("conv", "-r", tmp.resolve(evil).toString());
        assertEquals("ackscope conv: " + tmp + "/evil\\x1b]0;owned\\x07\\x1b[31m.pcap: no such file\n",
                missing.err());
        Path cut = tmp.resolve("cut\u001b[2J\u202e.pcap.gz");
        Files.write(cut, Arrays.copyOf(Files.readAllBytes(SAMPLE), 100_000));
        Run info = capture("info", cut.toString());
        assertFalse(info.out().contains("\u001b") || info.err().contains("\u001b") || info.err().contains("\u202e"),
                info.err());
        assertTrue(info.out().contains("File:                " + tmp + "/cut\\x1b[2J\\u202e.pcap.gz\n"), info.out());
        assertTrue(info.err().startsWith("ackscope info: " + tmp + "/cut\\x1b[2J\\u202e.pcap.gz: byte "), info.err());
        assertEquals("a\\x0ab\\x09c\\x7fd\\x9b", TerminalText.escape("a\nb\tc\u007fd\u009b"));
        assertEquals("plain name.pcap", TerminalText.escape("plain name.pcap"));
    }

    @Test
    void stackTracesOnlyWithVerbose() {
        Run quiet = main("conv", "-r", "/nonexistent.pcap");
        assertFalse(quiet.err().contains("\tat "), quiet.err());
        Run verbose = main("conv", "--verbose", "-r", "/nonexistent.pcap");
        assertEquals(1, verbose.exit());
        assertTrue(verbose.err().startsWith("ackscope conv: /nonexistent.pcap: no such file\n"), verbose.err());
        assertTrue(verbose.err().contains("java.nio.file.NoSuchFileException: /nonexistent.pcap\n\tat "),
                verbose.err());
    }

    @Test
    void dashReadsStandardInputForEveryCaptureCommand() throws Exception {
        byte[] gz = Files.readAllBytes(SAMPLE);
        InputStream stdin = System.in;
        try {
            for (String command : new String[] {"info", "fields", "conv", "diagnose"}) {
                Run fromFile = capture(command, SAMPLE.toString());
                System.setIn(new ByteArrayInputStream(gz));
                Run fromStdin = capture(command, "-");
                assertEquals(0, fromStdin.exit(), command + ": " + fromStdin.err());
                assertEquals("", fromStdin.err(), command);
                String want = command.equals("info")
                        ? fromFile.out().replace("File:                " + SAMPLE + "\nFile size:           "
                        + gz.length + " bytes\n", "File:                standard input\n")
                        : fromFile.out();
                assertEquals(want, fromStdin.out(), command);
            }
        } finally {
            System.setIn(stdin);
        }
    }

    /** Real pipes: /dev/stdin of a child process fed by this one, and a FIFO. */
    @Test
    void devStdinAndFifosAreReadAsStreams() throws Exception {
        byte[] gz = Files.readAllBytes(SAMPLE);
        String want = capture("conv", SAMPLE.toString()).out();
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "conv", "-r", "/dev/stdin")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Thread writer = new Thread(() -> {
            try (OutputStream o = p.getOutputStream()) {
                o.write(gz);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        writer.start();
        String got;
        try (InputStream in = p.getInputStream()) {
            got = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        writer.join();
        assertEquals(0, p.waitFor());
        assertEquals(want, got);

        Path fifo = Fifos.make(tmp.resolve("capture.fifo"));
        Thread feeder = Fifos.feed(fifo, gz);
        Run info = capture("info", fifo.toString());
        feeder.join();
        assertEquals(0, info.exit(), info.err());
        assertTrue(info.out().contains("File size:           - (not a regular file: read as a stream)\n"), info.out());
        assertTrue(info.out().contains("Packets:             6826\n"), info.out());
        assertTrue(info.out().contains("Compression:         gzip\n"), info.out());
    }
}
