/**
 * The command line: one JCommander class per subcommand ({@link io.ackscope.cli.Command}), and
 * {@link io.ackscope.cli.Main}, which only dispatches. The top layer: it may use every other package; none uses it.
 */
package io.ackscope.cli;
