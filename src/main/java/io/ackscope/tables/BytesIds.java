package io.ackscope.tables;

import java.util.Arrays;

/**
 * Dictionary ids of byte arrays by content, in an open-addressing table (linear probing): a lookup allocates
 * nothing. A {@code HashMap} keyed by {@code ByteBuffer.wrap(value)} allocated a buffer per value written, and its
 * lookups were about 5 % of analyze's engine tasks on a capture of many short connections (the address columns of
 * {@code rtt_samples} and {@code ack_delays} take this path for every row).
 */
final class BytesIds {
    private byte[][] keys = new byte[128][];
    private int[] ids = new int[128];
    private int[] hashes = new int[128];
    private int size;

    /** The id {@link #put} gave {@code v}'s content, or -1. */
    int get(byte[] v) {
        int h = hash(v);
        int mask = keys.length - 1;
        for (int s = h & mask; keys[s] != null; s = (s + 1) & mask) {
            if (hashes[s] == h && Arrays.equals(keys[s], v)) {
                return ids[s];
            }
        }
        return -1;
    }

    /** Gives {@code v}'s content {@code id}; {@code v} must not be there yet, and must not change afterwards. */
    void put(byte[] v, int id) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        insert(v, hash(v), id);
        size++;
    }

    private void insert(byte[] v, int h, int id) {
        int mask = keys.length - 1;
        int s = h & mask;
        while (keys[s] != null) {
            s = (s + 1) & mask;
        }
        keys[s] = v;
        hashes[s] = h;
        ids[s] = id;
    }

    private void grow() {
        byte[][] oldKeys = keys;
        int[] oldIds = ids;
        int[] oldHashes = hashes;
        keys = new byte[oldKeys.length * 2][];
        ids = new int[keys.length];
        hashes = new int[keys.length];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                insert(oldKeys[i], oldHashes[i], oldIds[i]);
            }
        }
    }

    private static int hash(byte[] v) {
        int h = Arrays.hashCode(v);
        return h ^ (h >>> 16) * 0x45d9f3b;
    }
}
