package io.ackscope.tables;

/**
 * Dictionary ids of strings, in an open-addressing table (linear probing) keyed by the strings' own hash codes and
 * equality: a lookup allocates nothing and follows no node, and an id is not boxed. A {@code HashMap<String,
 * Integer>} in its place was the largest part of the string dictionaries' cost in analyze's engine tasks (each
 * connection's uid is a new entry of every table's dictionary, and its {@code Integer} and node a new object).
 */
final class StringIds {
    private String[] keys = new String[128];
    private int[] ids = new int[128];
    private int[] hashes = new int[128];
    private int size;

    /** The id {@link #put} gave a string equal to {@code v}, or -1. */
    int get(String v) {
        int h = hash(v);
        int mask = keys.length - 1;
        for (int s = h & mask; keys[s] != null; s = (s + 1) & mask) {
            String k = keys[s];
            if (k == v || hashes[s] == h && k.equals(v)) {
                return ids[s];
            }
        }
        return -1;
    }

    /** Gives {@code v} {@code id}; no string equal to {@code v} must be there yet. */
    void put(String v, int id) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        insert(v, hash(v), id);
        size++;
    }

    int size() {
        return size;
    }

    private void insert(String v, int h, int id) {
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
        String[] oldKeys = keys;
        int[] oldIds = ids;
        int[] oldHashes = hashes;
        keys = new String[oldKeys.length * 2];
        ids = new int[keys.length];
        hashes = new int[keys.length];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                insert(oldKeys[i], oldHashes[i], oldIds[i]);
            }
        }
    }

    /** The string's hash with its high bits mixed into the low ones the table's mask keeps. */
    private static int hash(String v) {
        int h = v.hashCode();
        return h ^ (h >>> 16) * 0x45d9f3b;
    }
}
