/**
 * {@code analyze --watch}: the job run again, incrementally, as files arrive. The place of Spark's
 * {@code sql.execution.streaming}: it decides when a run happens, not what a run does (the driver is handed in).
 *
 * <ul>
 *   <li>{@link io.ackscope.spark.watch.WatchLoop}: one incremental run each time files arrive, and once more when
 *       the files the settle rule held back have been quiet for the settle period, until stopped.</li>
 *   <li>{@link io.ackscope.spark.watch.WatchedInputs}: the input directories as a Structured Streaming file source,
 *       and its checkpoint.</li>
 * </ul>
 *
 * <p>Uses {@code spark.commit} (the output directory and its lock).
 */
package io.ackscope.spark.watch;
