package io.ackscope.spark.source;

import java.io.Serializable;

/**
 * One input capture as listed on the driver.
 *
 * @param index  position in (source, first timestamp, name) order ({@link io.ackscope.capture.Archive}): file
 *               order for the engine and for stream ids
 * @param path   Hadoop path URI
 * @param length file length in bytes (compressed length for a compressed file)
 * @param hosts  hosts holding the file's first block, for locality; empty when unknown
 * @param source     index of the file's capture source in the archive's sources
 * @param sourceName its name
 */
public record CaptureFile(int index, String path, long length, String[] hosts, int source, String sourceName)
        implements Serializable {
    /** A file of source 0, unnamed. */
    public CaptureFile(int index, String path, long length, String[] hosts) {
        this(index, path, length, hosts, 0, "");
    }
}
