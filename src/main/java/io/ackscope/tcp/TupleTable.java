package io.ackscope.tcp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The engine's map from canonical 4-tuple to its state: open addressing with linear probing, the keys' fields
 * stored inline (five longs a slot), so a lookup reads one run of the key array and no key object. Every segment
 * is one lookup, and on a capture of many short connections the table holds hundreds of thousands of 4-tuples,
 * where {@link java.util.HashMap}'s node and key objects made each lookup a chain of cache misses (its
 * {@code getNode} was the largest single method of analyze's profile on such a capture). Removal shifts later
 * entries back (no tombstones), so lookups stay short after many removals.
 *
 * @param <V> the state kept per 4-tuple (never null)
 */
final class TupleTable<V> {
    private static final int FIELDS = 5;
    /** Slots: a power of two, at most half full. */
    private long[] keys;
    private Object[] values;
    private int size;

    TupleTable() {
        alloc(1024);
    }

    private void alloc(int slots) {
        keys = new long[slots * FIELDS];
        values = new Object[slots];
    }

    int size() {
        return size;
    }

    private static long ports(TupleKey k) {
        return ((long) k.aPort << 32) | (k.bPort & 0xffffffffL);
    }

    private static int hash(long aHi, long aLo, long bHi, long bLo, long ports) {
        long h = aLo * 0x9E3779B97F4A7C15L + bLo;
        h = h * 0x9E3779B97F4A7C15L + aHi * 31 + bHi;
        h = h * 0x9E3779B97F4A7C15L + ports;
        return (int) (h ^ (h >>> 29));
    }

    /** The slot holding {@code k}, or the free slot where it would go. */
    private int slot(TupleKey k) {
        long ports = ports(k);
        int mask = values.length - 1;
        int i = hash(k.aHi, k.aLo, k.bHi, k.bLo, ports) & mask;
        while (values[i] != null) {
            int o = i * FIELDS;
            if (keys[o + 1] == k.aLo && keys[o + 3] == k.bLo && keys[o + 4] == ports && keys[o] == k.aHi
                    && keys[o + 2] == k.bHi) {
                return i;
            }
            i = (i + 1) & mask;
        }
        return i;
    }

    /** The state of {@code k}, null when it has none. */
    @SuppressWarnings("unchecked")
    V get(TupleKey k) {
        return (V) values[slot(k)];
    }

    boolean containsKey(TupleKey k) {
        return get(k) != null;
    }

    /** Sets the state of {@code k} (its fields are copied: the key may be reused). */
    void put(TupleKey k, V value) {
        if (value == null) {
            throw new IllegalArgumentException("null state");
        }
        int i = slot(k);
        if (values[i] == null) {
            if ((size + 1) * 2 > values.length) {
                grow();
                i = slot(k);
            }
            int o = i * FIELDS;
            keys[o] = k.aHi;
            keys[o + 1] = k.aLo;
            keys[o + 2] = k.bHi;
            keys[o + 3] = k.bLo;
            keys[o + 4] = ports(k);
            size++;
        }
        values[i] = value;
    }

    /** Removes the state of {@code k}, if any. */
    void remove(TupleKey k) {
        int i = slot(k);
        if (values[i] == null) {
            return;
        }
        size--;
        int mask = values.length - 1;
        // backward-shift deletion: move each later entry of the run whose home is not between the hole and it
        int hole = i;
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            if (values[j] == null) {
                break;
            }
            int o = j * FIELDS;
            int home = hash(keys[o], keys[o + 1], keys[o + 2], keys[o + 3], keys[o + 4]) & mask;
            boolean stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
            if (!stays) {
                System.arraycopy(keys, o, keys, hole * FIELDS, FIELDS);
                values[hole] = values[j];
                hole = j;
            }
        }
        values[hole] = null;
    }

    private void grow() {
        long[] k = keys;
        Object[] v = values;
        alloc(v.length * 2);
        int mask = values.length - 1;
        for (int s = 0; s < v.length; s++) {
            if (v[s] != null) {
                int o = s * FIELDS;
                int i = hash(k[o], k[o + 1], k[o + 2], k[o + 3], k[o + 4]) & mask;
                while (values[i] != null) {
                    i = (i + 1) & mask;
                }
                System.arraycopy(k, o, keys, i * FIELDS, FIELDS);
                values[i] = v[s];
            }
        }
    }

    /** Every state held, in no particular order. */
    @SuppressWarnings("unchecked")
    List<V> values() {
        List<V> out = new ArrayList<>(size);
        for (Object v : values) {
            if (v != null) {
                out.add((V) v);
            }
        }
        return out;
    }

    void clear() {
        Arrays.fill(values, null);
        size = 0;
    }
}
