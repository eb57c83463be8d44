package io.ackscope.spark;

import java.io.Serializable;

/**
 * One input capture as listed on the driver.
 *
 * @param index  position in the sorted list of inputs (file order for the engine and for stream ids)
 * @param path   Hadoop path URI
 * @param length file length in bytes (compressed length for a compressed file)
 * @param hosts  hosts holding the file's first block, for locality; empty when unknown
 */
public record CaptureFile(int index, String path, long length, String[] hosts) implements Serializable {
}
