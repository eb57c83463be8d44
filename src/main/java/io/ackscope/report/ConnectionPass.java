package io.ackscope.report;

import io.ackscope.tables.Column;
import io.ackscope.tables.EngineTables.Connections;
import io.ackscope.tables.TableReader;
import io.ackscope.tcp.Addresses;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The first pass over {@code connections}: which connections are selected ({@link Selection}), per endpoint their
 * counts and handshake RTTs, the vantage points, the first frames (evidence of handshake causes), and the
 * timeline: its window (two order statistics of all connection times, {@link SmallestValues} keeping the 0.5% at
 * each end) and its busy periods ({@link BusyPeriods}, the connections' spans merged).
 */
final class ConnectionPass {
    /** The columns this pass reads (the second pass, {@link WorstConnections}, reads them all for a few). */
    static final List<Column> COLUMNS = List.of(Connections.STREAM, Connections.FIRST_TIME,
            Connections.LAST_TIME, Connections.SYN_TIME, Connections.INITIAL_RTT_US, Connections.VANTAGE,
            Connections.SERVER_IP, Connections.SERVER_PORT, Connections.FIRST_FRAME);

    private final Selection sel;
    /** Told each selected connection's first frame: the evidence of a handshake cause. */
    private final CauseFindings causes;
    /** Connections per inferred vantage point. */
    final Map<String, Long> vantage = new TreeMap<>();
    private final BusyPeriods busy = new BusyPeriods();

    ConnectionPass(Selection sel, CauseFindings causes) {
        this.sel = sel;
        this.causes = causes;
    }

    /**
     * Reads the table.
     *
     * @param rows the rows of the table (from its footers): bounds the order statistics the window needs
     * @return the timeline to fill, or null when no connection is selected
     */
    TimelineBuilder read(TableReader.Scan scan, long rows) throws IOException {
        ReportFilter filter = sel.filter;
        long[] span = {Long.MAX_VALUE, Long.MIN_VALUE};
        // the ranks window() reads are below 0.5% of the selected connections, + 1 for rounding
        int tail = (int) Math.min(Integer.MAX_VALUE / 4, (long) (rows * 0.005) + 2);
        SmallestValues firsts = new SmallestValues(tail), lastsNegated = new SmallestValues(tail);
        scan.forEach(b -> {
            TableReader.LongColumn stream = b.longs(Connections.STREAM), first = b.longs(Connections.FIRST_TIME),
                    last = b.longs(Connections.LAST_TIME), syn = b.longs(Connections.SYN_TIME),
                    initialRtt = b.longs(Connections.INITIAL_RTT_US), serverPort = b.longs(Connections.SERVER_PORT),
                    firstFrame = b.longs(Connections.FIRST_FRAME);
            String[] vant = b.strings(Connections.VANTAGE), serverIp = b.strings(Connections.SERVER_IP);
            String[] source = Selection.sources(b);
            for (int i = 0; i < b.rows; i++) {
                sel.totalConnections++;
                String server = Addresses.endpointText(serverIp[i], (int) serverPort.values[i]);
                String src = source == null ? null : source[i];
                if (!sel.selects(src, server, first.values[i], last.values[i])) {
                    continue;
                }
                sel.selected++;
                EndpointStats e = sel.add(src, stream.values[i], server);
                causes.seen(src, firstFrame.values[i], stream.values[i]);
                e.connections++;
                e.connectionMicros += last.values[i] - first.values[i];
                e.vantage.merge(vant[i], 1L, Long::sum);
                vantage.merge(vant[i], 1L, Long::sum);
                long handshakeAt = syn.present[i] ? syn.values[i] : first.values[i];
                if (initialRtt.present[i] && filter.inWindow(handshakeAt)) {
                    e.metrics[EndpointStats.HANDSHAKE_RTT].add(initialRtt.values[i]);
                }
                firsts.add(first.values[i]);
                lastsNegated.add(-last.values[i]);
                busy.add(first.values[i], last.values[i]);
                span[0] = Math.min(span[0], first.values[i]);
                span[1] = Math.max(span[1], last.values[i]);
            }
        });
        if (sel.selected == 0) {
            return null;
        }
        long[] w = window(span[0], span[1], firsts, lastsNegated);
        long from = Math.max(w[0], filter.sinceMicros()), to = Math.min(w[1], filter.untilMicros() - 1);
        return new TimelineBuilder(busy.periods(from, to));
    }

    /**
     * The span the timeline covers: every selected connection, unless a few connections with clocks far from the
     * rest (a capture stamped 1970, a bogus year 2262) would squeeze everything else into one interval; then the
     * middle 99% of connections. What falls outside is counted and said on the page.
     */
    private long[] window(long min, long max, SmallestValues firsts, SmallestValues lastsNegated) {
        long n = sel.selected;
        long lo = firsts.get((int) (n * 0.005));
        // index j of the lasts in ascending order is index n - 1 - j of them in descending order
        long hi = -lastsNegated.get((int) (n - 1 - Math.max(0, (long) Math.ceil(n * 0.995) - 1)));
        long core = Math.max(hi - lo, 0);
        boolean outliers = (double) (max - min) > 3.0 * core + 3_600_000_000.0;
        return outliers ? new long[]{lo, hi} : new long[]{min, max};
    }
}
