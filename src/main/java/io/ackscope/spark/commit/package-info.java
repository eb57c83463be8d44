/**
 * The output directory of {@code analyze} and its commit protocol: where a run's files are staged, how they are put
 * into their tables' partition directories and how the whole output is replaced or added to, so that at every
 * instant (a kill included) the directory holds a complete output or one that readers refuse and the next run
 * completes. The place of {@code org.apache.spark.internal.io.FileCommitProtocol} in Spark: it knows where files go
 * and in which order they move, not what is in them.
 *
 * <ul>
 *   <li>{@link io.ackscope.spark.commit.OutputDirectory}: one run's output directory: prepare (lock, recover, check),
 *       stage, commit in named steps, close; the one owner of the output's layout.</li>
 *   <li>{@link io.ackscope.spark.commit.CommitSteps}: the commit's filesystem steps that a run and a later recovery
 *       both take, each idempotent given what is still in staging.</li>
 *   <li>{@link io.ackscope.spark.commit.CreatedLock}: the output lock on a Hadoop filesystem (exclusive creation of
 *       the lock file), stale when its process is gone.</li>
 *   <li>{@link io.ackscope.spark.commit.OutputOverlap}: whether the output directory and the inputs overlap, asked of
 *       real paths before anything is written.</li>
 *   <li>{@link io.ackscope.spark.commit.TaskOutput}: one table's files of one task attempt, one writer per partition
 *       directory, and the list of files it wrote ({@code Written}).</li>
 *   <li>{@link io.ackscope.spark.commit.TableFiles}: opens a table's Parquet writer on a Hadoop filesystem with the
 *       table's Spark schema in the footer.</li>
 *   <li>{@link io.ackscope.spark.commit.TableCommit}: puts the tasks' files and the driver's tables into their
 *       partition directories in staging, one winning attempt per partition.</li>
 *   <li>{@link io.ackscope.spark.commit.DatasetView}: a staged output seen whole with the earlier one before the
 *       commit, for the report of a run that appends.</li>
 *   <li>{@link io.ackscope.spark.commit.NoSpace}: the one-line error of a run that filled the output's filesystem
 *       (what was staged, what is free, whether the next run completes the commit), and whether a failure is one.</li>
 *   <li>{@link io.ackscope.spark.commit.NioLocalFileSystem}: Hadoop's local filesystem with permissions set through
 *       {@code java.nio} instead of a {@code chmod} process per file and directory.</li>
 * </ul>
 *
 * <p>Uses {@code spark.source} (the Spark schemas), {@code output}, {@code tables} and {@code capture}; knows nothing
 * of the engine, the carry or the driver.
 */
package io.ackscope.spark.commit;
