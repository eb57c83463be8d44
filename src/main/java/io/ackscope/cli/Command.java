package io.ackscope.cli;

import com.beust.jcommander.Parameter;

/**
 * One subcommand: a JCommander parameter class that knows how to run itself. Every subcommand carries
 * {@code -h/--help}; JCommander reads the field from this superclass.
 */
public abstract class Command {

    @Parameter(names = {"-h", "--help"}, help = true, description = "Show this help")
    private boolean help;

    /** Runs the command after its parameters were parsed; returns the process exit code. */
    public abstract int run() throws Exception;

    /** Whether {@code -h/--help} was given: {@link Main} prints the usage instead of running. */
    public final boolean help() {
        return help;
    }
}
