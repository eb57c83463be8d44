/**
 * Frame fields as tshark's {@code -T fields} prints them, for {@code ackscope fields}: what each named field of a
 * frame is, the display filter over them, and the allocation-free tab-separated output. A frame's fields come from
 * one decode ({@code decode}) and, for the {@code tcp.analysis} fields, the single-JVM engine ({@code tcp}).
 *
 * <ul>
 *   <li>{@link io.ackscope.fields.FrameFields}: the field catalogue: each field's name, description, the pass that
 *       knows it and the writer of its cell.</li>
 *   <li>{@link io.ackscope.fields.DisplayFilter}: tshark's display-filter subset over those fields, compiled once,
 *       evaluated per frame.</li>
 *   <li>{@link io.ackscope.fields.TsvOutput}: buffered ASCII output of tab-separated rows; writing a row allocates
 *       nothing.</li>
 *   <li>{@link io.ackscope.fields.HttpConversations}: the HTTP messages of each TCP connection as tshark's HTTP
 *       dissector sees them in one pass, for the {@code http.*} fields ({@code HttpFields}); {@code HttpDirection}
 *       reassembles one direction, {@code HttpHead} reads a message head.</li>
 * </ul>
 *
 * <p>Uses {@code tcp}, {@code decode} and {@code capture}; the command ({@code cli/FieldsCommand}) uses it.
 */
package io.ackscope.fields;
