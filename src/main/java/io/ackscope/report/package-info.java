/**
 * The postmortem page: {@code report.html} of an {@code analyze} output, made from its Parquet tables without Spark.
 *
 * <p><b>Flow.</b> {@link io.ackscope.report.ReportBuilder} runs the passes over the tables, column by column
 * ({@link io.ackscope.tables.TableReader}, only the columns {@link io.ackscope.report.Tables} names, as the
 * schemas' own {@code Column}s), filtered by a {@link io.ackscope.report.ReportFilter} and joined through one
 * {@link io.ackscope.report.Selection}: {@link io.ackscope.report.ConnectionPass},
 * {@link io.ackscope.report.Measurements}, {@link io.ackscope.report.WorstConnections}, into a
 * {@link io.ackscope.report.ReportData}. The causes come from the {@code findings} table
 * ({@link io.ackscope.report.CauseFindings}, the verdict rule of {@code tcp/CauseRanking});
 * {@link io.ackscope.report.VerdictText} and {@link io.ackscope.report.Findings} put them in words;
 * {@link io.ackscope.report.LadderReader} re-reads a few connections from the captures for their flow graphs;
 * {@link io.ackscope.report.HtmlReport}, {@link io.ackscope.report.CausesSection} and
 * {@link io.ackscope.report.Svg} render one self-contained page (no script, no external resource).
 *
 * <p><b>Untrusted text.</b> Everything that came from a capture goes through {@link io.ackscope.report.Text}: cut to
 * a bound and escaped before it reaches the page.
 *
 * <p>Uses {@code tables}, {@code tcp}, {@code decode}, {@code capture} and {@code output}; not Spark.
 */
package io.ackscope.report;
