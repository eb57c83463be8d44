/**
 * Reading capture files: classic pcap (µs and ns, both byte orders, the "modified" format) and pcapng (any number of
 * sections and interfaces), plain or gzip/zstd/bzip2-compressed, one record at a time without holding the file.
 *
 * <p><b>Entry points.</b> {@link io.ackscope.capture.Captures#open} detects compression and format from the first
 * bytes (never from the name) and returns a {@link io.ackscope.capture.CaptureReader}. The reader owns its buffer:
 * the bytes of a record stay valid until the next call. {@link io.ackscope.capture.SplitLocator} finds record
 * boundaries so that one uncompressed file can be read as independent byte-range splits.
 *
 * <p><b>Bad input.</b> A damaged file raises the one checked {@link io.ackscope.capture.CaptureException}, with the
 * file and byte offset; a file cut inside its last record is a {@link io.ackscope.capture.CaptureProblem}, not an
 * exception. Every length field is checked against the bytes left and a bound before it is used.
 *
 * <p>The bottom layer: it knows nothing of packets' contents, TCP or Spark.
 */
package io.ackscope.capture;
