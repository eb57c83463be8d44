/**
 * The one JSON writer ({@link io.ackscope.json.JsonWriter}): the report's data model, {@code load --json} and the
 * {@code analyze} summary in {@code _SUCCESS} all write through it, so strings are escaped one way everywhere.
 * Nothing here reads JSON, and nothing here uses the rest of ackscope.
 */
package io.ackscope.json;
