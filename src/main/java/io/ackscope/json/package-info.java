/**
 * The one home of JSON: {@link io.ackscope.json.Json} owns the one configured Jackson mapper and factory that every
 * reader and writer of JSON in ackscope uses (the report's data model, {@code load --json}, the {@code analyze}
 * summary and {@code _SUCCESS}, the commit record, {@code inputs.json}, the Zeek JSON export, {@code sql}/{@code
 * export} JSON lines), so strings are escaped one way everywhere: nothing that would not show, and nothing that could
 * close a {@code <script>}, is written raw. {@link io.ackscope.json.LayoutPrinter} lays out one document with a
 * layout per object or array, for golden files that read as a diff. Nothing here uses the rest of ackscope.
 */
package io.ackscope.json;
