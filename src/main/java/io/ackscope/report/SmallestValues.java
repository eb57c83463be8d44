package io.ackscope.report;

import java.util.Arrays;

/**
 * The {@code capacity} smallest of a stream of longs, for an exact order statistic near one end of many values
 * (the 0.5% and 99.5% points of connection times) without holding them all: values are buffered, and when the
 * buffer is full it is sorted and cut back to the smallest {@code capacity}; a value not below the largest kept
 * one is not buffered at all. Amortised O(log capacity) per value, memory 16 bytes per unit of capacity.
 */
final class SmallestValues {
    private final int capacity;
    private long[] buf;
    private int size;
    /** Once the buffer was cut: the largest value kept; values at or above it cannot be among the smallest. */
    private long bound = Long.MAX_VALUE;
    private boolean cut;

    SmallestValues(int capacity) {
        this.capacity = Math.max(1, capacity);
        buf = new long[Math.min(2 * this.capacity, 1024)];
    }

    void add(long v) {
        if (cut && v >= bound) {
            return;
        }
        if (size == buf.length) {
            if (buf.length < 2 * capacity) {
                buf = Arrays.copyOf(buf, (int) Math.min(2L * capacity, 2L * buf.length));
            } else {
                Arrays.sort(buf, 0, size);
                size = capacity;
                bound = buf[capacity - 1];
                cut = true;
                if (v >= bound) {
                    return;
                }
            }
        }
        buf[size++] = v;
    }

    /**
     * The value at {@code rank} (from 0) in ascending order of everything added; {@code rank} must be below the
     * capacity and the number of values added.
     */
    long get(int rank) {
        if (rank < 0 || rank >= Math.min(size, capacity)) {
            throw new IndexOutOfBoundsException("rank " + rank + " of " + Math.min(size, capacity) + " kept");
        }
        Arrays.sort(buf, 0, size);
        return buf[rank];
    }
}
