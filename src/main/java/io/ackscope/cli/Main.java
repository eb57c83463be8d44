package io.ackscope.cli;

import com.beust.jcommander.JCommander;
import com.beust.jcommander.ParameterException;
import io.ackscope.capture.CaptureException;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.nio.file.FileSystemException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/** Entry point: dispatches to one {@link Command} per subcommand. */
public final class Main {

    private Main() {
    }

    /** Subcommand name to a fresh parameter object; order is the order of the usage text. */
    static Map<String, Supplier<Command>> commands() {
        Map<String, Supplier<Command>> m = new LinkedHashMap<>();
        m.put("info", InfoCommand::new);
        m.put("fields", FieldsCommand::new);
        m.put("conv", ConvCommand::new);
        m.put("diagnose", DiagnoseCommand::new);
        m.put("vantage", VantageCommand::new);
        m.put("probe", ProbeCommand::new);
        m.put("trace", TraceCommand::new);
        m.put("capture", CaptureCommand::new);
        m.put("load", LoadCommand::new);
        m.put("serve", ServeCommand::new);
        m.put("analyze", AnalyzeCommand::new);
        m.put("report", ReportCommand::new);
        m.put("sql", SqlCommand::new);
        m.put("export", ExportCommand::new);
        m.put("lab", LabCommand::new);
        return m;
    }

    /**
     * The command line: runs {@link #run} with a bound on how long the end can take. SIGINT and SIGTERM end any
     * command (128 + the signal) even when its heap is full, and a heap that stays full ends it with exit 1 and the
     * out-of-memory line ({@link BoundedExit}, {@link MemoryWatch}; {@code -Dackscope.memoryWatch=off} leaves that to
     * the JVM's own limits).
     */
    public static void main(String[] args) {
        BoundedExit.prepare();
        OutOfMemory.noteUncaught();
        TerminationSignals.exitOnSignalUnlessIgnored();
        if (!"off".equals(System.getProperty(MemoryWatch.PROPERTY))) {
            MemoryWatch.start(args.length > 0 && commands().containsKey(args[0]) ? args[0] : "", System.err);
        }
        BoundedExit.exit(run(args, System.out, System.err));
    }

    /**
     * Runs ackscope with {@code args}; returns the exit code ({@link Command}'s {@code EXIT_*}: 0 ok, 1 failure,
     * 2 usage error, 3 damaged input under {@code --strict}). An error is one line on {@code err},
     * {@code ackscope CMD: what}, escaped for the terminal; its stack trace follows only with {@code --verbose}.
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, Supplier<Command>> factories = commands();
        JCommander.Builder b = JCommander.newBuilder().programName("ackscope");
        Map<String, Command> instances = new LinkedHashMap<>();
        for (Map.Entry<String, Supplier<Command>> e : factories.entrySet()) {
            Command c = e.getValue().get();
            instances.put(e.getKey(), c);
            b.addCommand(e.getKey(), c);
        }
        JCommander jc = b.build();
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            out.print(commandList(instances));
            return args.length == 0 ? 2 : 0;
        }
        try {
            jc.parse(args);
        } catch (ParameterException e) {
            return usage(err, jc.getParsedCommand(), e);
        }
        String name = jc.getParsedCommand();
        Command cmd = instances.get(name);
        String unknown = unknownOption(jc.getCommands().get(name), args);
        if (unknown != null) {
            return usage(err, name, new ParameterException("unknown option '" + unknown + "' (a file whose name "
                    + "starts with '-' can be given as ./" + unknown + ")"));
        }
        if (cmd.help()) {
            StringBuilder sb = new StringBuilder();
            jc.getUsageFormatter().usage(name, sb);
            out.print(sb);
            return 0;
        }
        try {
            return cmd.run();
        } catch (ParameterException e) {
            return usage(err, name, e);
        } catch (OutOfMemoryError e) {
            if (!BoundedExit.exiting()) {
                err.println("ackscope " + name + ": " + OutOfMemory.line(e));
            }
            return Command.EXIT_FAILURE;
        } catch (Exception e) {
            if (BoundedExit.exiting()) {
                // a signal or the memory watch ends the JVM and said so; the run failing under it is not a second error
                return Command.EXIT_FAILURE;
            }
            OutOfMemoryError elsewhere = OutOfMemory.inAnotherThread();
            if (OutOfMemory.causedBy(e) || elsewhere != null) {
                err.println("ackscope " + name + ": " + OutOfMemory.line(OutOfMemory.causedBy(e) ? e : elsewhere));
                if (cmd.verbose()) {
                    e.printStackTrace(err);
                }
                return Command.EXIT_FAILURE;
            }
            err.println(TerminalText.escape("ackscope " + name + ": " + describe(e)));
            if (cmd.verbose()) {
                e.printStackTrace(err);
            }
            return e instanceof CommandFailure f ? f.exitCode()
                    : e instanceof CaptureException ? Command.EXIT_DAMAGED : Command.EXIT_FAILURE;
        }
    }

    /**
     * The first argument JCommander took for a command's input (its main parameter) although it looks like an
     * option, or null: JCommander passes an unknown {@code -x} to a command that takes files as a file name, and a
     * mistyped flag must be an error naming it, not "no such file". A lone {@code -} (standard input) and anything
     * after {@code --} are inputs.
     */
    static String unknownOption(JCommander command, String[] args) {
        if (command == null || command.getMainParameterValue() == null
                || !(command.getMainParameterValue().getParameterized().get(command.getObjects().get(0))
                instanceof List<?> inputs)) {
            return null;
        }
        List<String> beforeDashes = new ArrayList<>();
        for (String a : args) {
            if (a.equals("--")) {
                break;
            }
            beforeDashes.add(a);
        }
        for (Object o : inputs) {
            String v = String.valueOf(o);
            if (v.length() > 1 && v.startsWith("-") && beforeDashes.contains(v) && !isNumber(v)) {
                return v;
            }
        }
        return null;
    }

    /** A negative number is an input (a port, an offset), not an option. */
    private static boolean isNumber(String s) {
        try {
            new java.math.BigDecimal(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** JCommander's message for an argument a command without inputs cannot take, in the words of the others. */
    static String plainWords(String message) {
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("Was passed main parameter '(.*)' but no main parameter was defined.*").matcher(message);
        if (!m.matches()) {
            return message;
        }
        String arg = m.group(1);
        return arg.startsWith("-") && arg.length() > 1 ? "unknown option '" + arg + "'"
                : "unexpected argument '" + arg + "'";
    }

    /** The short help: one line per command (its description's first sentence), then where the options are. */
    static String commandList(Map<String, Command> commands) {
        StringBuilder sb = new StringBuilder("Usage: ackscope COMMAND [options]\n\nCommands:\n");
        int width = commands.keySet().stream().mapToInt(String::length).max().orElse(0);
        for (Map.Entry<String, Command> e : commands.entrySet()) {
            com.beust.jcommander.Parameters p = e.getValue().getClass()
                    .getAnnotation(com.beust.jcommander.Parameters.class);
            String line = p == null ? "" : firstSentence(p.commandDescription());
            sb.append("  ").append(e.getKey()).append(" ".repeat(width - e.getKey().length() + 2)).append(line)
                    .append('\n');
        }
        return sb.append("\nRun 'ackscope COMMAND --help' for a command's options.\n").toString();
    }

    /** Up to the first ". " (the rest is for the command's own help), cut at a word to at most 100 characters. */
    private static String firstSentence(String d) {
        int stop = d.indexOf(". ");
        String s = stop > 0 ? d.substring(0, stop) : d;
        if (s.length() <= 100) {
            return s;
        }
        int space = s.lastIndexOf(' ', 96);
        return s.substring(0, space > 0 ? space : 96) + " ...";
    }

    private static int usage(PrintStream err, String command, ParameterException e) {
        err.println(TerminalText.escape("ackscope" + (command != null ? " " + command : "") + ": "
                + plainWords(e.getMessage())));
        if (command != null) {
            err.println("Run 'ackscope " + command + " --help' for its options.");
        } else {
            err.println("Run 'ackscope --help' for the list of commands.");
        }
        return Command.EXIT_USAGE;
    }

    /**
     * An exception as the one line a user reads: the file and what is wrong with it for file-system errors (whose
     * own message is often only the path), the file and offset for a damaged capture, the message otherwise.
     */
    static String describe(Throwable e) {
        if (e instanceof FileSystemException f && !(e.getCause() instanceof FileSystemException)) {
            String file = f.getFile() != null ? f.getFile() : "";
            return CaptureInput.unreadable(file, f).getMessage()
                    + (f.getOtherFile() != null ? " (" + f.getOtherFile() + ")" : "");
        }
        String m = e.getMessage();
        if (m == null || m.isBlank()) {
            return e.getClass().getSimpleName() + (e.getCause() != null ? ": " + describe(e.getCause()) : "");
        }
        return m;
    }
}
