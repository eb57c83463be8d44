/**
 * What makes an {@code analyze} output directory complete, shared by its writer ({@code spark.OutputDirectory})
 * and its readers ({@code report}): the {@code _SUCCESS} marker ({@link io.ackscope.output.OutputMarker}), which
 * names the tables and lists every file the run wrote (the manifest {@code --overwrite} removes by). No Spark and
 * no Hadoop here, so the report reads outputs without them.
 */
package io.ackscope.output;
