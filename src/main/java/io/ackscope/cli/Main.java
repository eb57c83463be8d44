package io.ackscope.cli;

import com.beust.jcommander.JCommander;
import com.beust.jcommander.ParameterException;

import java.io.PrintStream;
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
        m.put("probe", ProbeCommand::new);
        m.put("trace", TraceCommand::new);
        m.put("capture", CaptureCommand::new);
        m.put("load", LoadCommand::new);
        m.put("serve", ServeCommand::new);
        m.put("analyze", AnalyzeCommand::new);
        m.put("report", ReportCommand::new);
        m.put("lab", LabCommand::new);
        return m;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs ackscope with {@code args}; returns the exit code (0 ok, 1 failure, 2 usage error). */
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
            StringBuilder sb = new StringBuilder();
            jc.getUsageFormatter().usage(sb);
            out.print(sb);
            return args.length == 0 ? 2 : 0;
        }
        try {
            jc.parse(args);
        } catch (ParameterException e) {
            err.println("ackscope: " + e.getMessage());
            String name = jc.getParsedCommand();
            if (name != null) {
                err.println("Run 'ackscope " + name + " --help' for its options.");
            } else {
                err.println("Run 'ackscope --help' for the list of commands.");
            }
            return 2;
        }
        String name = jc.getParsedCommand();
        Command cmd = instances.get(name);
        if (cmd.help()) {
            StringBuilder sb = new StringBuilder();
            jc.getUsageFormatter().usage(name, sb);
            out.print(sb);
            return 0;
        }
        try {
            return cmd.run();
        } catch (Command.UsageError e) {
            err.println("ackscope " + name + ": " + e.getMessage());
            return 2;
        } catch (Exception e) {
            err.println("ackscope " + name + ": " + e.getMessage());
            return 1;
        }
    }
}
