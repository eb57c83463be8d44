package io.ackscope.cli;

/** One subcommand: a JCommander parameter class that knows how to run itself. */
public interface Command {
    /** Runs the command after its parameters were parsed; returns the process exit code. */
    int run() throws Exception;

    /** The usual parameter every subcommand carries. */
    boolean help();
}
