package io.ackscope.tables;

import java.util.Arrays;

/**
 * Dictionary ids of a BINARY column's values: strings by their own equality (a String caches its hash), byte arrays
 * by content, in one open-addressing table (linear probing). A lookup allocates nothing and follows no node, and an
 * id is not boxed: a {@code HashMap<String, Integer>} was the largest part of the string dictionaries' cost in
 * analyze's engine tasks (each connection's uid is a new entry of every table's dictionary), and one keyed by
 * {@code ByteBuffer.wrap(value)} allocated a buffer per address written. A string and a byte array are never equal
 * keys, whatever their bytes.
 */
final class RefIds {
    private Object[] keys = new Object[128];
    private int[] ids = new int[128];
    private int[] hashes = new int[128];
    private int size;

    /** The id {@link #put} gave a value equal to {@code v} (a {@link String} or a {@code byte[]}), or -1. */
    int get(Object v) {
        int h = hash(v);
        int mask = keys.length - 1;
        for (int s = h & mask; keys[s] != null; s = (s + 1) & mask) {
            Object k = keys[s];
            if (k == v || hashes[s] == h && same(k, v)) {
                return ids[s];
            }
        }
        return -1;
    }

    /**
     * Gives {@code v} {@code id}; no value equal to {@code v} must be there yet, and a byte array must not change
     * afterwards.
     */
    void put(Object v, int id) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        insert(v, hash(v), id);
        size++;
    }

    int size() {
        return size;
    }

    private void insert(Object v, int h, int id) {
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
        Object[] oldKeys = keys;
        int[] oldIds = ids;
        int[] oldHashes = hashes;
        keys = new Object[oldKeys.length * 2];
        ids = new int[keys.length];
        hashes = new int[keys.length];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                insert(oldKeys[i], oldHashes[i], oldIds[i]);
            }
        }
    }

    private static boolean same(Object a, Object b) {
        return a instanceof byte[] x ? b instanceof byte[] y && Arrays.equals(x, y) : a.equals(b);
    }

    /** The value's hash with its high bits mixed into the low ones the table's mask keeps. */
    private static int hash(Object v) {
        int h = v instanceof byte[] b ? Arrays.hashCode(b) : v.hashCode();
        return h ^ (h >>> 16) * 0x45d9f3b;
    }
}
