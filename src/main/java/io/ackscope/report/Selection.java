package io.ackscope.report;

import io.ackscope.tables.EngineTables;
import io.ackscope.tables.TableReader;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The connections a report is about, as every table reader of the report joins to them: the filter, the endpoints
 * (first seen first) and the {@link ConnectionIndex} from (source ordinal, stream) to an endpoint. Filled by the
 * first pass over {@code connections} ({@link ConnectionPass}); read by the measurement readers, the findings and
 * the worst connections. One place for the join, so the readers cannot disagree about which row is whose.
 */
final class Selection {
    /** Bits of the stream number in a connection key; the source's ordinal is above them. */
    static final int SOURCE_SHIFT = 40;

    final ReportFilter filter;
    /** The tables hold more than one capture source: endpoints are named with theirs. */
    final boolean manySources;
    /** The endpoints' ordinals by name: {@link #endpoints} positions, what {@link ConnectionIndex} points to. */
    private final Map<String, Integer> endpointOrdinals = new HashMap<>();
    /** The endpoints, first seen first. */
    final List<EndpointStats> endpoints = new ArrayList<>();
    final ConnectionIndex index = new ConnectionIndex();
    /** The selected connections' sources, numbered as first seen: a connection's key is (ordinal, stream). */
    private final Map<String, Integer> sourceOrdinals = new HashMap<>();
    /** Connections in the table, and those that pass the filter. */
    long totalConnections, selected;

    Selection(ReportFilter filter, boolean manySources) {
        this.filter = filter;
        this.manySources = manySources;
    }

    /** Whether a row of {@code connections} is selected: its source, its server endpoint, its time span. */
    boolean selects(String source, String server, long first, long last) {
        return filter.selectsSource(source) && filter.selectsServer(server) && filter.overlaps(first, last);
    }

    /** The endpoint a connection counts for: with several sources, one endpoint seen from two is two endpoints. */
    String endpointName(String server, String source) {
        return manySources && source != null ? server + " at " + source : server;
    }

    /** Records a selected connection; returns its endpoint (made on first sight). */
    EndpointStats add(String source, long stream, String server) {
        // get before put: a lambda that reads this object's maps is a new object per call, one per connection
        String sourceKey = source == null ? "" : source;
        Integer ordinal = sourceOrdinals.get(sourceKey);
        if (ordinal == null) {
            ordinal = sourceOrdinals.size();
            sourceOrdinals.put(sourceKey, ordinal);
        }
        String name = endpointName(server, source);
        Integer endpoint = endpointOrdinals.get(name);
        if (endpoint == null) {
            endpoints.add(new EndpointStats(name));
            endpoint = endpoints.size() - 1;
            endpointOrdinals.put(name, endpoint);
        }
        index.put(ordinal, stream, endpoint);
        return endpoints.get(endpoint);
    }

    /** The endpoint called {@code name}, or null when no selected connection has it. */
    EndpointStats endpoint(String name) {
        Integer e = endpointOrdinals.get(name);
        return e == null ? null : endpoints.get(e);
    }

    /** The batch's source column, or null when the table has none (an output from before sources). */
    static String[] sources(TableReader.Batch b) {
        return b.has(EngineTables.SOURCE) ? b.strings(EngineTables.SOURCE) : null;
    }

    /** The ordinal of a source: 0 for a table without sources (null), -1 for one with no selected connection. */
    int sourceOrdinal(String source) {
        Integer ordinal = sourceOrdinals.get(source == null ? "" : source);
        return ordinal == null ? -1 : ordinal;
    }

    /** The ordinal of a row's source: 0 for a table without sources, -1 for a source with no selected connection. */
    int sourceOrdinal(String[] source, int row) {
        return source == null ? 0 : sourceOrdinal(source[row]);
    }

    /** A connection's key: its source's ordinal and its stream, or -1 when the source has none selected. */
    static long key(int ordinal, long stream) {
        return ordinal < 0 ? -1 : ((long) ordinal << SOURCE_SHIFT) | stream;
    }

    /** The endpoint of a row's connection, or null when the connection is not selected. */
    EndpointStats endpoint(String[] source, int row, long stream) {
        int ordinal = sourceOrdinal(source, row);
        int e = ordinal < 0 ? -1 : index.endpoint(ordinal, stream);
        return e < 0 ? null : endpoints.get(e);
    }

    /** The measures slot of a row's connection (made on first use), or -1 when it is not selected. */
    int slot(String[] source, int row, long stream) {
        int ordinal = sourceOrdinal(source, row);
        return ordinal < 0 ? -1 : index.slot(ordinal, stream);
    }

    /** The page's anchor of a connection's flow graph: {@code stream-N}, with the source's ordinal when not first. */
    static String anchor(long key) {
        long ordinal = key >>> SOURCE_SHIFT, stream = key & ((1L << SOURCE_SHIFT) - 1);
        return ordinal == 0 ? "stream-" + stream : "stream-" + ordinal + "-" + stream;
    }
}
