/**
 * What an {@code analyze} output directory is to its writer ({@code spark.OutputDirectory}) and its readers
 * ({@code report}, the notebooks): the {@code _SUCCESS} marker that makes it complete and lists every file the run
 * wrote, the manifest {@code --overwrite} removes by ({@link io.ackscope.output.OutputMarker}); and the lock one
 * command at a time holds on it ({@link io.ackscope.output.OutputLock}). No Spark and no Hadoop here, so the report
 * reads outputs without them. The staging directories' prefix is {@code capture.Archive}'s, whose listing skips them.
 */
package io.ackscope.output;
