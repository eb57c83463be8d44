package io.ackscope.tables;

import java.util.Arrays;

/**
 * Open-addressing map from an int value to its first-seen index, for {@link ChunkDictionary}: no boxing, as ports,
 * flags and counts go through it once per value.
 */
final class IntIds {
    int[] values = new int[64];
    int size;
    private int[] slots = new int[128];

    IntIds() {
        Arrays.fill(slots, -1);
    }

    int id(int v) {
        int mask = slots.length - 1;
        int h = mix(v) & mask;
        while (true) {
            int s = slots[h];
            if (s < 0) {
                if (size == values.length) {
                    values = Arrays.copyOf(values, size * 2);
                }
                values[size] = v;
                slots[h] = size;
                if (++size * 2 > slots.length) {
                    grow();
                }
                return size - 1;
            }
            if (values[s] == v) {
                return s;
            }
            h = (h + 1) & mask;
        }
    }

    private void grow() {
        slots = new int[slots.length * 2];
        Arrays.fill(slots, -1);
        int mask = slots.length - 1;
        for (int i = 0; i < size; i++) {
            int h = mix(values[i]) & mask;
            while (slots[h] >= 0) {
                h = (h + 1) & mask;
            }
            slots[h] = i;
        }
    }

    private static int mix(int v) {
        int h = v * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
