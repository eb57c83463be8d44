/**
 * What an incremental run ({@code analyze --incremental}, {@code --watch}) takes from the output it adds to and
 * leaves in it for the next: the record of the inputs, the decision of what to read, and the state carried under
 * {@code _ackscope_state/}. The engine's tasks hold open connections through {@code spark.engine.EngineCarry}; this
 * package decides which state they resume and where it is kept.
 *
 * <ul>
 *   <li>{@link io.ackscope.spark.carry.CarriedState}: the layout of {@code _ackscope_state/} (the only class that
 *       builds its paths; the others ask it), its four formats and their version rules, and the engine's carry as
 *       files ({@code CarriedState.Held}).</li>
 *   <li>{@link io.ackscope.spark.carry.InputsState}: {@code _ackscope_state/inputs.json}: each capture file the
 *       rows come from, its fingerprint, and each source's figures.</li>
 *   <li>{@link io.ackscope.spark.carry.ArchiveInputs}: what a run reads, decided on the driver before the read: the
 *       listing, the settled files, and for an incremental run whether it appends or reads every file again.</li>
 *   <li>{@link io.ackscope.spark.carry.Settle}: the settle rule: the newest file of a source is taken only once it
 *       has been quiet for the settle period.</li>
 *   <li>{@link io.ackscope.spark.carry.Continuation}: what an incremental run takes from the earlier state and
 *       leaves in its own: the carried connections, the numbering to go on from, what its commit retires.</li>
 *   <li>{@link io.ackscope.spark.carry.FinalAggregates}: one source's per-endpoint aggregate (of
 *       {@code latency_summary} and {@code findings}) over its final rows, kept so that appending gives the rows one run over all files would.</li>
 *   <li>{@link io.ackscope.spark.carry.SourceTuples}: the 4-tuples and first handshakes each source has had, so that
 *       a run appending to two or more capture points knows when it cannot.</li>
 *   <li>{@link io.ackscope.spark.carry.StateCheck}: the carried state checked as input, every value against the
 *       files it describes; a problem found means reading every file again, with that reason said.</li>
 * </ul>
 *
 * <p>Uses {@code spark.engine}, {@code spark.commit} and {@code spark.source}; not the driver.
 */
package io.ackscope.spark.carry;
