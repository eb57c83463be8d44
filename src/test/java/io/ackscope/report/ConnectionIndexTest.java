package io.ackscope.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link ConnectionIndex}: dense per source, a map when streams are far apart, slots made once. */
class ConnectionIndexTest {
    @Test
    void endpointsAndSlotsBySourceAndStream() {
        ConnectionIndex x = new ConnectionIndex();
        x.put(0, 0, 3);
        x.put(0, 7, 1);
        x.put(1, 7, 2);
        assertEquals(3, x.endpoint(0, 0));
        assertEquals(1, x.endpoint(0, 7));
        assertEquals(2, x.endpoint(1, 7));
        assertEquals(-1, x.endpoint(0, 1));       // not selected
        assertEquals(-1, x.endpoint(2, 0));       // unknown source
        assertEquals(-1, x.endpoint(0, 1L << 40));
        assertEquals(-1, x.existingSlot(0, 7));
        int s = x.slot(0, 7);
        assertEquals(0, s);
        assertEquals(s, x.slot(0, 7));
        assertEquals(s, x.existingSlot(0, 7));
        assertEquals(1, x.endpoint(0, 7));       // the slot keeps the endpoint
        assertEquals(1, x.measures.endpoint[s]);
        assertEquals(-1, x.measures.maxResponse[s]);
        assertEquals(-1, x.slot(0, 2));
    }

    @Test
    void farApartStreamsGoToAMapAndKeepEveryEntry() {
        ConnectionIndex x = new ConnectionIndex();
        for (int i = 0; i < 100; i++) {
            x.put(0, i, i % 5);
        }
        int slot = x.slot(0, 42);
        x.put(0, 5_000_000_000L, 4);            // beyond any dense array: the source switches to a map
        x.put(0, -3, 1);
        for (int i = 0; i < 100; i++) {
            assertEquals(i % 5, x.endpoint(0, i), "stream " + i);
        }
        assertEquals(slot, x.existingSlot(0, 42));
        assertEquals(4, x.endpoint(0, 5_000_000_000L));
        assertEquals(1, x.endpoint(0, -3));
        assertEquals(-1, x.endpoint(0, 100));
    }
}
