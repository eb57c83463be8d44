package io.ackscope.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The selected connections as the report joins the measurement tables to them: per (source ordinal, stream) one
 * {@code int} that says the connection's endpoint, and for the few connections that have exchanges or stalls the
 * sums and maxima that rank the worst connections ({@link Measures}). Nothing else of a connection is kept, so a
 * capture of millions of attempts costs four bytes per connection here, not an object each.
 *
 * <p>An entry is 0 for a connection that is not selected, {@code e + 1} for one whose endpoint has ordinal
 * {@code e} and that has no measures yet, and {@code -(slot + 1)} once it has a {@link Measures} slot (the slot
 * keeps the endpoint). Streams of one source are numbered from 0 by {@code analyze}, so the entries of a source are
 * an array indexed by stream; a source whose streams are far sparser than that (a table from elsewhere) falls back
 * to a map.
 *
 * <p>Threads: {@link #endpoint} may be called from several threads at once while nothing is added.
 */
final class ConnectionIndex {
    /** Entries per source ordinal: an array indexed by stream, or null when {@link #sparse} holds them. */
    private final List<int[]> dense = new ArrayList<>();
    private final List<Map<Long, Integer>> sparse = new ArrayList<>();
    private final List<Long> entries = new ArrayList<>();
    final Measures measures = new Measures();

    /** Records a selected connection; a second row of the same (source, stream) replaces the first's endpoint. */
    void put(int source, long stream, int endpoint) {
        while (dense.size() <= source) {
            dense.add(new int[64]);
            sparse.add(null);
            entries.add(0L);
        }
        long n = entries.get(source) + 1;
        entries.set(source, n);
        int[] d = dense.get(source);
        if (d != null && (stream < 0 || stream > Integer.MAX_VALUE - 16 || stream >= 4 * n + (1 << 20))) {
            toSparse(source);
            d = null;
        }
        if (d == null) {
            sparse.get(source).put(stream, endpoint + 1);
            return;
        }
        if (stream >= d.length) {
            d = Arrays.copyOf(d, (int) Math.max(stream + 1, Math.min(Integer.MAX_VALUE - 8, 2L * d.length)));
            dense.set(source, d);
        }
        d[(int) stream] = endpoint + 1;
    }

    private void toSparse(int source) {
        int[] d = dense.get(source);
        Map<Long, Integer> m = new HashMap<>();
        for (int s = 0; s < d.length; s++) {
            if (d[s] != 0) {
                m.put((long) s, d[s]);
            }
        }
        dense.set(source, null);
        sparse.set(source, m);
    }

    private int entry(int source, long stream) {
        if (source < 0 || source >= dense.size()) {
            return 0;
        }
        int[] d = dense.get(source);
        if (d == null) {
            return sparse.get(source).getOrDefault(stream, 0);
        }
        return stream >= 0 && stream < d.length ? d[(int) stream] : 0;
    }

    private void set(int source, long stream, int value) {
        int[] d = dense.get(source);
        if (d == null) {
            sparse.get(source).put(stream, value);
        } else {
            d[(int) stream] = value;
        }
    }

    /** The endpoint ordinal of a selected connection, or -1 when the connection is not selected. */
    int endpoint(int source, long stream) {
        int e = entry(source, stream);
        return e > 0 ? e - 1 : e < 0 ? measures.endpoint[-e - 1] : -1;
    }

    /** The {@link Measures} slot of a selected connection (made on first use), or -1 when it is not selected. */
    int slot(int source, long stream) {
        int e = entry(source, stream);
        if (e >= 0) {
            if (e == 0) {
                return -1;
            }
            int slot = measures.add(e - 1);
            set(source, stream, -(slot + 1));
            return slot;
        }
        return -e - 1;
    }

    /** The slot of a selected connection, or -1 when it has none (no exchange or stall in the filter). */
    int existingSlot(int source, long stream) {
        int e = entry(source, stream);
        return e < 0 ? -e - 1 : -1;
    }

    /**
     * What the exchanges and stalls of one connection add up to, for the connections that have some: columns of
     * primitives by slot. -1 means "none" in the maxima, as in {@link ReportBuilder.Conn}.
     */
    static final class Measures {
        int size;
        int[] endpoint = new int[16];
        long[] requests = new long[16], stalls = new long[16], stallMicros = new long[16];
        long[] maxTtfb = new long[16], maxResponse = new long[16], slowestStart = new long[16];
        long[] worstStallMicros = new long[16], worstStallHeldFrame = new long[16];

        private int add(int endpointOrdinal) {
            if (size == endpoint.length) {
                int n = size * 2;
                endpoint = Arrays.copyOf(endpoint, n);
                requests = Arrays.copyOf(requests, n);
                stalls = Arrays.copyOf(stalls, n);
                stallMicros = Arrays.copyOf(stallMicros, n);
                maxTtfb = Arrays.copyOf(maxTtfb, n);
                maxResponse = Arrays.copyOf(maxResponse, n);
                slowestStart = Arrays.copyOf(slowestStart, n);
                worstStallMicros = Arrays.copyOf(worstStallMicros, n);
                worstStallHeldFrame = Arrays.copyOf(worstStallHeldFrame, n);
            }
            int s = size++;
            endpoint[s] = endpointOrdinal;
            maxTtfb[s] = -1;
            maxResponse[s] = -1;
            slowestStart[s] = -1;
            worstStallMicros[s] = -1;
            worstStallHeldFrame[s] = -1;
            return s;
        }
    }
}
