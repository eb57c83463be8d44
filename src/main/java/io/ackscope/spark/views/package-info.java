/**
 * The tables of finished {@code analyze} outputs as Spark SQL views, for {@code ackscope sql} and
 * {@code ackscope export}: a reader of outputs, not part of the job that writes them.
 *
 * <ul>
 *   <li>{@link io.ackscope.spark.views.OutputViews}: registers each table of one or more complete outputs as a view
 *       of its name over every output that has it.</li>
 *   <li>{@link io.ackscope.spark.views.ZeekConnLog}: the {@code connections} view as Zeek's {@code conn.log}
 *       (ASCII TSV with Zeek's header lines), the form {@code export --format zeek} writes.</li>
 * </ul>
 *
 * <p>Uses {@code spark.source} (the Spark schemas), {@code output} and {@code tables}.
 */
package io.ackscope.spark.views;
