package io.ackscope.tcp;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** {@link TupleTable} against {@link HashMap} under random puts, lookups and removals that wrap and grow it. */
class TupleTableTest {

    private static TupleKey key(Random r, int hosts, int ports) {
        TupleKey k = new TupleKey();
        k.aHi = 0;
        k.aLo = 0xffff00000000L | r.nextInt(hosts);
        k.bHi = r.nextInt(3) == 0 ? r.nextInt(hosts) : 0;    // some IPv6-like keys
        k.bLo = 0xffff00000000L | r.nextInt(hosts);
        k.aPort = r.nextInt(ports);
        k.bPort = 80 + r.nextInt(2);
        return k;
    }

    @Test
    void agreesWithHashMapUnderRandomOperations() {
        Random r = new Random(42);
        TupleTable<Integer> table = new TupleTable<>();
        Map<TupleKey, Integer> reference = new HashMap<>();
        int removed = 0;
        for (int op = 0; op < 400_000; op++) {
            TupleKey k = key(r, 4, 3_000);
            int what = r.nextInt(10);
            if (what < 5) {
                table.put(k, op);
                reference.put(new TupleKey().copy(k), op);
            } else if (what < 8) {
                table.remove(k);
                if (reference.remove(k) != null) {
                    removed++;
                }
            } else {
                assertEquals(reference.get(k), table.get(k), "lookup " + op);
            }
            if (op % 50_000 == 0) {
                assertEquals(reference.size(), table.size());
            }
        }
        assertEquals(reference.size(), table.size());
        for (Map.Entry<TupleKey, Integer> e : reference.entrySet()) {
            assertEquals(e.getValue(), table.get(e.getKey()));
        }
        assertEquals(new HashSet<>(reference.values()), new HashSet<>(table.values()));
        assertEquals(true, removed > 20_000, "removals exercised: " + removed);
        table.clear();
        assertEquals(0, table.size());
        assertNull(table.get(key(r, 40, 2_000)));
    }

    @Test
    void removalKeepsEveryOtherKeyOfACollidingRunReachable() {
        // a small key space fills long probe runs; removing from their middles must keep the rest reachable
        Random r = new Random(7);
        TupleTable<Integer> table = new TupleTable<>();
        Map<TupleKey, Integer> reference = new HashMap<>();
        for (int i = 0; i < 600; i++) {
            TupleKey k = key(r, 2, 400);
            table.put(k, i);
            reference.put(new TupleKey().copy(k), i);
        }
        for (TupleKey k : reference.keySet().stream().toList()) {
            if ((k.aPort & 1) == 0) {
                table.remove(k);
                reference.remove(k);
            }
        }
        for (Map.Entry<TupleKey, Integer> e : reference.entrySet()) {
            assertEquals(e.getValue(), table.get(e.getKey()));
        }
        assertEquals(reference.size(), table.size());
    }
}
