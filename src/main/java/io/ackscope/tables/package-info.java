/**
 * The tables of an {@code analyze} output, free of Spark: their schemas, and the Parquet writer and reader.
 *
 * <p><b>Schemas.</b> Every table is one {@link io.ackscope.tables.TableSchema} of
 * {@link io.ackscope.tables.Column}s (name, type, nullability, unit, meaning): {@link io.ackscope.tables.EngineTables}
 * (the six tables of the TCP engine), {@link io.ackscope.tables.CaptureFilesTable},
 * {@link io.ackscope.tables.SourcesTable}, {@link io.ackscope.tables.LatencySummaryTable} and
 * {@link io.ackscope.tables.PacketSchema}. This is the single source of their names, types, units and docs: the
 * Parquet schema ({@link io.ackscope.tables.ParquetTableWriter#parquetSchema}), the Spark schema ({@code spark})
 * and {@code docs/schema.md} ({@link io.ackscope.tables.SchemaDoc}) are derived from it, and readers name the
 * columns they read by its {@code Column} constants, never by strings.
 *
 * <p><b>Writer.</b> {@link io.ackscope.tables.ParquetTableWriter} writes {@link io.ackscope.tables.RowBuffer} rows
 * (one reused per task, primitives unboxed) straight into column chunks ({@link io.ackscope.tables.LeafChunk},
 * with {@link io.ackscope.tables.ChunkDictionary} and {@link io.ackscope.tables.PageCompressor}) in the format
 * Spark's own writer produces; where the file goes and the footer's metadata are its caller's.
 *
 * <p><b>Reader.</b> {@link io.ackscope.tables.TableReader} reads the columns asked for, a row group at a time into
 * primitive arrays, one column chunk at a time ({@link io.ackscope.tables.ColumnChunks}; flat chunks straight from
 * their pages, {@link io.ackscope.tables.PageColumns}), from the part
 * files a {@link io.ackscope.tables.TableFiles} admits (an output's manifest, or every file); the report and the lab
 * read through it.
 *
 * <p>Uses nothing of ackscope and no Spark ({@code LayeringTest} checks both); {@code spark}, {@code report},
 * {@code lab} (and {@code cli} through them) use it.
 */
package io.ackscope.tables;
