package io.ackscope.report;

import io.ackscope.tables.EngineTables.AckDelays;
import io.ackscope.tables.EngineTables.Exchanges;
import io.ackscope.tables.EngineTables.RttSamples;
import io.ackscope.tables.EngineTables.Stalls;
import io.ackscope.tables.TableReader;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * The measurement tables of the selected connections, one pass each: exchanges (per-endpoint latencies, the
 * slowest requests, the timeline), data RTTs, ACK delays and stalls; the sums per connection that rank the worst
 * ones ({@link ConnectionIndex.Measures}); and the stalls' frames, which the Nagle rows of {@code findings} name
 * as evidence ({@link CauseFindings#seen}). Memory: one {@code long} per latency value (exact percentiles, as
 * {@code latency_summary}) and bounded top-N lists.
 */
final class Measurements {
    private final Selection sel;
    private final TimelineBuilder timeline;
    private final CauseFindings causes;
    /** ACK delays by how they were obtained (DIRECT, ESTIMATED, UNCORRECTED). */
    final Map<String, Long> ackMethods = new TreeMap<>();
    /** Exchanges of the selected connections in the window. */
    long requests;
    private final PriorityQueue<ReportData.Request> slowest = new PriorityQueue<>(
            Comparator.comparingLong(Measurements::slowness));

    Measurements(Selection sel, TimelineBuilder timeline, CauseFindings causes) {
        this.sel = sel;
        this.timeline = timeline;
        this.causes = causes;
    }

    static long slowness(ReportData.Request r) {
        return r.responseMicros() != null ? r.responseMicros() : r.ttfbMicros() != null ? r.ttfbMicros() : -1;
    }

    /** The slowest requests, slowest first. */
    List<ReportData.Request> slowest() {
        List<ReportData.Request> slow = new ArrayList<>(slowest);
        slow.sort(Comparator.comparingLong(Measurements::slowness).reversed()
                .thenComparingLong(ReportData.Request::stream).thenComparingInt(ReportData.Request::index));
        return slow;
    }

    void readExchanges(TableReader.Scan scan) throws IOException {
        ConnectionIndex.Measures m = sel.index.measures;
        scan.forEach(b -> {
            TableReader.LongColumn stream = b.longs(Exchanges.STREAM), idx = b.longs(Exchanges.EXCHANGE_INDEX),
                    start = b.longs(Exchanges.REQUEST_START_TIME), ttfb = b.longs(Exchanges.TTFB_US),
                    stall = b.longs(Exchanges.STALL_BEFORE_RESPONSE_US), rstall = b.longs(Exchanges.STALL_IN_RESPONSE_US),
                    complete = b.longs(Exchanges.COMPLETE_US), reqBytes = b.longs(Exchanges.REQUEST_BYTES),
                    respBytes = b.longs(Exchanges.RESPONSE_BYTES), status = b.longs(Exchanges.HTTP_STATUS);
            String[] method = b.strings(Exchanges.HTTP_METHOD), target = b.strings(Exchanges.HTTP_TARGET),
                    host = b.strings(Exchanges.HTTP_HOST);
            String[] source = Selection.sources(b);
            for (int i = 0; i < b.rows; i++) {
                if (!sel.filter.inWindow(start.values[i])) {
                    continue;
                }
                int c = sel.slot(source, i, stream.values[i]);
                if (c < 0) {
                    continue;
                }
                EndpointStats endpoint = sel.endpoints.get(m.endpoint[c]);
                long t = ttfb.present[i] ? ttfb.values[i] : -1;
                long done = complete.present[i] ? complete.values[i] : -1;
                endpoint.exchange((int) idx.values[i], t, stall.present[i] ? stall.values[i] : 0,
                        rstall.present[i] ? rstall.values[i] : 0, done);
                requests++;
                m.requests[c]++;
                m.maxTtfb[c] = Math.max(m.maxTtfb[c], t);
                if (done > m.maxResponse[c] || done == m.maxResponse[c] && start.values[i] < m.slowestStart[c]) {
                    m.maxResponse[c] = done;
                    m.slowestStart[c] = start.values[i];
                }
                timeline.exchange(start.values[i], t, done);
                long key = done >= 0 ? done : t;
                if (slowest.size() < ReportBuilder.LIMITS.slowestRequests() || key > slowness(slowest.peek())) {
                    slowest.add(new ReportData.Request(stream.values[i], (int) idx.values[i], start.values[i],
                            endpoint.server, method[i], target[i], host[i],
                            status.present[i] ? (int) status.values[i] : null, t >= 0 ? t : null,
                            done >= 0 ? done : null,
                            (stall.present[i] ? stall.values[i] : 0) + (rstall.present[i] ? rstall.values[i] : 0),
                            reqBytes.values[i], respBytes.values[i]));
                    if (slowest.size() > ReportBuilder.LIMITS.slowestRequests()) {
                        slowest.poll();
                    }
                }
            }
        });
    }

    void readRttSamples(TableReader.Scan scan) throws IOException {
        scan.forEach(b -> {
            TableReader.LongColumn stream = b.longs(RttSamples.STREAM), ts = b.longs(RttSamples.CLOSING_TIME),
                    rtt = b.longs(RttSamples.RTT_US);
            String[] kind = b.strings(RttSamples.KIND);
            String[] source = Selection.sources(b);
            for (int i = 0; i < b.rows; i++) {
                if (!"DATA_ACK".equals(kind[i]) || !sel.filter.inWindow(ts.values[i])) {
                    continue;
                }
                EndpointStats e = sel.endpoint(source, i, stream.values[i]);
                if (e != null) {
                    e.metrics[EndpointStats.DATA_RTT].add(rtt.values[i]);
                    timeline.dataRtt(ts.values[i], rtt.values[i]);
                }
            }
        });
    }

    void readAckDelays(TableReader.Scan scan) throws IOException {
        // counted without a boxed Long per row (the method column has a handful of values), then added in name order
        Map<String, long[]> methods = new HashMap<>();
        scan.forEach(b -> {
            TableReader.LongColumn stream = b.longs(AckDelays.STREAM), ts = b.longs(AckDelays.ACK_TIME),
                    delay = b.longs(AckDelays.ACK_DELAY_US);
            String[] side = b.strings(AckDelays.ACKING_SIDE), method = b.strings(AckDelays.METHOD),
                    cls = b.strings(AckDelays.ACK_CLASS);
            String[] source = Selection.sources(b);
            for (int i = 0; i < b.rows; i++) {
                if (!sel.filter.inWindow(ts.values[i])) {
                    continue;
                }
                EndpointStats e = sel.endpoint(source, i, stream.values[i]);
                if (e != null) {
                    e.ackDelay(side[i], delay.values[i], cls[i]);
                    long[] n = methods.get(method[i]);
                    if (n == null) {
                        n = new long[1];
                        methods.put(method[i], n);
                    }
                    n[0]++;
                }
            }
        });
        methods.forEach((name, n) -> ackMethods.merge(name, n[0], Long::sum));
    }

    void readStalls(TableReader.Scan scan) throws IOException {
        ConnectionIndex.Measures m = sel.index.measures;
        scan.forEach(b -> {
            TableReader.LongColumn stream = b.longs(Stalls.STREAM), start = b.longs(Stalls.HELD_TIME),
                    duration = b.longs(Stalls.DURATION_US), ack = b.longs(Stalls.ACK_DELAY_US),
                    gap = b.longs(Stalls.RESUME_GAP_US), held = b.longs(Stalls.HELD_FRAME),
                    ackFrame = b.longs(Stalls.ACK_FRAME), resumeFrame = b.longs(Stalls.RESUME_FRAME);
            String[] holding = b.strings(Stalls.HOLDING_SIDE), evidence = b.strings(Stalls.EVIDENCE);
            String[] source = Selection.sources(b);
            for (int i = 0; i < b.rows; i++) {
                String src = source == null ? null : source[i];
                causes.seen(src, held.values[i], stream.values[i]);
                causes.seen(src, ackFrame.values[i], stream.values[i]);
                causes.seen(src, resumeFrame.values[i], stream.values[i]);
                if (!sel.filter.inWindow(start.values[i])) {
                    continue;
                }
                int c = sel.slot(source, i, stream.values[i]);
                if (c < 0) {
                    continue;
                }
                long d = duration.values[i];
                sel.endpoints.get(m.endpoint[c]).stall(stream.values[i], "SERVER".equals(holding[i]), d,
                        ack.values[i], gap.values[i], evidence[i]);
                m.stalls[c]++;
                m.stallMicros[c] += d;
                // the evidence of the worst stall is read again for the few connections shown (readStallEvidence)
                if (d > m.worstStallMicros[c]
                        || d == m.worstStallMicros[c] && held.values[i] < m.worstStallHeldFrame[c]) {
                    m.worstStallMicros[c] = d;
                    m.worstStallHeldFrame[c] = held.values[i];
                }
                timeline.stall(start.values[i]);
            }
        });
    }
}
