package io.ackscope.spark.source;

import java.io.Serializable;

/**
 * How one capture is read.
 *
 * @param splits      number of splits (1 when read whole)
 * @param wholeReason why the file is read whole, or null when it is split
 */
public record FilePlan(int splits, String wholeReason) implements Serializable {
}
