/**
 * The command line: one JCommander class per subcommand ({@link io.ackscope.cli.Command}), and
 * {@link io.ackscope.cli.Main}, which only dispatches. The top layer: it may use every other package; none uses it.
 *
 * <p>Besides the commands, only command plumbing lives here: what turns arguments into work and work into what a
 * user reads on a terminal, shared by several commands or owned by one command's output form. Nothing below
 * {@code cli} needs any of it.
 * <ul>
 *   <li>Arguments and exits: {@link io.ackscope.cli.Command} (exit codes, the base of every subcommand),
 *       {@link io.ackscope.cli.CommandFailure} (a failure that names what failed and its exit code),
 *       {@code DurationConverter} and {@code OptionRange} (option values checked as JCommander parses them),
 *       {@code LocalSpark} (the Spark configuration from {@code --conf}/{@code --master}, for the Spark commands).</li>
 *   <li>Inputs of the single-JVM commands: {@code CaptureInput} (a file, FIFO or standard input, read once, damage
 *       reported the same way by all four) and {@code LocalArchive} (local inputs as an archive, for {@code conv}
 *       and {@code diagnose}).</li>
 *   <li>Output to a terminal: {@code TerminalText} (every name and capture string a command prints is escaped
 *       by it), {@code ResultWriter} (query results of {@code sql} as table, CSV or JSON Lines),
 *       {@code ConvRows} (the rows of {@code conv} held off the heap until printed in tshark's order),
 *       {@code CaptureSummary} and {@code InfoJson} (the tally of {@code info} and its JSON form).</li>
 *   <li>What the readers of an output may do: {@code QueryGuard} (a {@code sql} query is read-only: Spark's own
 *       parser decides, and statements that write, change the session or run code are refused),
 *       {@code ResultTarget} (a result file of {@code sql}, {@code report} or {@code export} never lands inside an
 *       output, a table or an input), {@code OutputSnapshot} (a result read while an analyze run committed to its
 *       output is dropped, never kept).</li>
 *   <li>Signals and resources: {@code TerminationSignals} and {@code StopOnSignal} (SIGINT/SIGTERM stop a
 *       long-running command cleanly), {@code BoundedExit} (an exit whose shutdown hooks cannot hold it up, even on a
 *       full heap), {@code OutOfMemory} (a full heap is one line naming the heap, what it held and how to raise it,
 *       exit 1), {@code MemoryWatch} (a heap that stays full while the collectors take all the time ends the command
 *       with that line instead of spinning).</li>
 *   <li>{@code AnalyzeWatch}: the {@code --watch} loop of {@code analyze}, part of that command.</li>
 * </ul>
 * Capture-derived formats that another reader could use live elsewhere: the frame fields and display filter in
 * {@code fields}, Zeek's {@code conn.log} in {@code spark.views}.
 */
package io.ackscope.cli;
