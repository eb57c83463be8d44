package io.ackscope.report;

import java.util.List;
import java.util.Map;

/**
 * What the report page shows, computed from the tables ({@link ReportBuilder}) and rendered by {@link HtmlReport}.
 * The golden test compares this model (as JSON, {@link ReportJson}) rather than HTML bytes, so a change in the numbers
 * shows as a readable diff and a change in layout does not.
 *
 * <p>Units: durations are whole microseconds ({@code Micros} suffix), timestamps microseconds since the Unix epoch
 * (UTC). A {@code Long} or {@code Integer} that is null means "no value". Every string that came from a capture
 * (file names, HTTP fields, evidence that quotes them) is raw here: bounding and escaping are the renderer's job.
 * Every list is bounded; {@link Limits} says by how much.
 *
 * @param tablesDir          the directory the tables were read from, as given
 * @param filter             the filter applied ({@link ReportFilter#describe()})
 * @param input              what was analysed
 * @param verdict            the answer in one sentence, for the top of the page
 * @param causes             the latency causes of the {@code findings} table, costliest first (bounded)
 * @param causesNotShown     causes beyond that bound
 * @param findingsTable      the output has a {@code findings} table (older ones do not: no causes then)
 * @param endpoints          per server endpoint, the most time lost first, then the busiest (at most
 *                           {@link Limits#endpoints()})
 * @param endpointsNotShown  endpoints beyond that bound
 * @param timeline           latency over time
 * @param worstConnections   the worst connections, worst first, with their flow graphs
 * @param slowestRequests    the slowest request/response exchanges, slowest first
 * @param method             how the numbers were measured
 * @param limits             how the page summarises and samples
 * @param sourcePairs        pairs of capture sources that saw connections in common (two vantage points), at most
 *                           {@link VantageReader#MAX_PAIRS}; empty with one source
 */
public record ReportData(String tablesDir, String filter, Input input, Verdict verdict, List<CauseRow> causes,
                         int causesNotShown, boolean findingsTable, List<Endpoint> endpoints,
                         int endpointsNotShown, Timeline timeline, List<Connection> worstConnections,
                         List<Request> slowestRequests, Method method, Limits limits, List<SourcePair> sourcePairs) {

    /**
     * Two capture sources lined up (the {@code source_pairs} row, docs/vantage.md), with the distributions of the
     * one-way delays between them ({@code one_way_delays}; p50 and p99 exact, from the row) and the time split of
     * each server endpoint ({@code host_times}).
     *
     * @param delaysSplit the offset's bound is tight enough (1 ms) to split a round trip into its two directions
     */
    public record SourcePair(String sourceA, String sourceB, long connections, long clockOffsetMicros,
                             long clockOffsetErrorMicros, double driftPpm, boolean delaysSplit, long lostAtoB,
                             long lostBtoA, Distribution aToB, Distribution bToA, List<HostSplit> servers,
                             TwoPointFlow flow) {
    }

    /**
     * The flow graph of one connection at both points: the one with the pair's largest one-way delay, its segments
     * around that one ({@link VantageReader#FLOW_ROWS} at most), each an arrow from where it was seen leaving to
     * where it was seen arriving, on A's clock.
     *
     * @param streamA  the connection's stream at A
     * @param streamB  and at B
     * @param crossings the segments, in A's order
     */
    public record TwoPointFlow(long streamA, long streamB, List<Crossing> crossings) {
    }

    /**
     * One segment between the points: times in µs since the flow's first one, on A's clock (B's moved by the
     * offset).
     */
    public record Crossing(boolean aToB, long aMicros, long bMicros, long delayMicros, long seq, int length,
                           long aFrame, long bFrame) {
    }

    /**
     * One server endpoint's time split, medians in µs (null without samples): the client host's ACK delay (all of
     * them, and those that released a stall) read at A, the network each way, the server host's turnaround read at B.
     */
    public record HostSplit(String server, long connections, Long clientAckMicros, Long stallAckMicros,
                            Long aToBMicros, Long bToAMicros, Long serverMicros, Long serverAtAMicros) {
    }

    /**
     * What the numbers rest on: the capture files and how every frame was accounted for.
     *
     * @param skippedByReason frames not handed to the TCP engine, by reason (largest first, bounded)
     * @param connections     connections in the tables
     * @param selected        connections that pass the filter
     * @param requests        request/response exchanges that pass the filter
     */
    public record Input(int files, long fileBytes, long frames, long tcpFrames, long framesOk, long framesTruncated,
                        long framesMalformed, long framesUnsupported, Map<String, Long> skippedByReason,
                        List<String> formats, Long firstMicros, Long lastMicros, int damagedFiles,
                        List<CaptureFile> fileList, int filesNotListed, long connections, long selected,
                        long requests, List<Source> sources) {
    }

    /**
     * One row of the {@code sources} table: a capture point whose files were read as one capture.
     *
     * @param gapMicros    total length of the gaps between its files
     * @param verdict      its verdict in words ({@link SourceNotes}); null without a findings table
     * @param notFollowing why its files do not follow on from each other, or null when they do
     */
    public record Source(String name, int files, long frames, int gaps, long gapMicros, long duplicateFrames,
                         int copiesSkipped, String verdict, String notFollowing) {
        /**
         * The console's one line when its files do not follow on from each other ({@link SourceNotes}), else null.
         */
        public String followOnWarning() {
            return notFollowing == null ? null : "the " + files + " files of source " + name + " do not follow on "
                    + "from each other (" + notFollowing + "): if they are separate captures, analyze them with "
                    + "--source-by file";
        }
    }

    /** One row of {@code capture_files}. */
    public record CaptureFile(int index, String file, String format, String readMode, List<Long> linkTypes,
                              long bytes, long frames, long tcpFrames, long framesOk, long framesTruncated,
                              long framesMalformed, long framesUnsupported, Long firstMicros, Long lastMicros,
                              Long errorOffset, String error, Long tailOffset, String tailProblem) {
    }

    /**
     * The answer at the top of the page.
     *
     * @param found    true when a cause cost at least 1% of its endpoint's response time (the verdict rule of
     *                 {@code tcp/CauseRanking})
     * @param cause    the verdict's cause (a {@code tcp/Cause} name), or null
     * @param headline one sentence
     * @param summary  two or three sentences in plain words
     * @param fixes    what to change, most effective first (empty when there is nothing to fix)
     * @param evidence the page anchor of the flow graph that shows it, or null
     */
    public record Verdict(boolean found, String cause, String headline, String summary, List<String> fixes,
                          String evidence) {
    }

    /**
     * One row of the {@code findings} table: a cause of one endpoint and what it cost.
     *
     * @param verdict        its share is at least the verdict threshold (it may be a verdict; below, listed only)
     * @param share          time lost as a fraction 0-1 of the endpoint's response time
     * @param fix            what to change, in one line
     * @param evidenceFrames the frames that prove it, costliest occurrence first
     * @param evidenceFrame  the frame the drawn flow graph centres on, or null when none is drawn
     * @param evidence       the page anchor of that flow graph, or null
     */
    public record CauseRow(String server, String cause, String title, boolean verdict, double share,
                           long timeLostMicros, long requests, long connections, long events, long count, String fix,
                           List<Long> evidenceFrames, Long evidenceFrame, String evidence) {
    }

    /**
     * One server endpoint (responder address and port).
     *
     * @param requests              request/response exchanges
     * @param laterRequests         exchanges after the first on their connection (keep-alive reuse)
     * @param laterRequestsStalled  of those, the ones that lost time to a stall
     * @param serverHeldStalls      stalls where the server's data waited for the client's delayed ACK
     * @param clientHeldStalls      stalls where the client's data waited for the server's delayed ACK
     * @param stallMicros           total stall time
     * @param stallShare            stall time inside exchanges ÷ total exchange time (request start to last
     *                              response byte); without exchanges, stall time ÷ connection time
     * @param distributions         handshake RTT, data RTT, ACK delay, time to first byte, response time
     * @param ackClasses            per acking side (CLIENT, SERVER): ACK counts by class
     * @param vantage               connections per inferred capture vantage point
     * @param timeLostMicros        time lost to the causes found ({@code findings})
     * @param findings              diagnosis, most important first
     */
    public record Endpoint(String server, long connections, long requests, long laterRequests,
                           long laterRequestsStalled, long serverHeldStalls, long clientHeldStalls, long stallMicros,
                           double stallShare, long timeLostMicros, List<Distribution> distributions,
                           Map<String, Map<String, Long>> ackClasses, Map<String, Long> vantage,
                           List<Finding> findings) {

        public Distribution distribution(String metric) {
            for (Distribution d : distributions) {
                if (d.metric().equals(metric)) {
                    return d;
                }
            }
            throw new IllegalArgumentException(metric);
        }
    }

    /**
     * A latency distribution: exact nearest-rank percentiles and a log-scale histogram ({@link LatencyBins}).
     *
     * @param metric   handshake_rtt, data_rtt, ack_delay, ttfb, response
     * @param label    what it is, in a few words
     * @param detail   from where to where it is measured
     * @param firstBin {@link LatencyBins} index of {@code bins[0]}
     * @param bins     counts of the bins from {@code firstBin} to the last non-empty one
     */
    public record Distribution(String metric, String label, String detail, long count, Long p50Micros, Long p90Micros,
                               Long p99Micros, Long maxMicros, int firstBin, long[] bins) {
    }

    /**
     * One conclusion with its evidence.
     *
     * @param kind        a {@code tcp/Cause} name, or NO_CAUSE
     * @param severity    problem (at least 1% of the response time: a verdict), minor (below), or ok
     * @param title       a few words
     * @param explanation what happens, in plain words (empty where the cause has none)
     * @param evidence    the facts from the capture it rests on
     * @param fixes       what to change
     * @param example     the page anchor of the flow graph where it can be seen, or null when none is drawn
     */
    public record Finding(String kind, String severity, String title, String explanation, List<String> evidence,
                          List<String> fixes, String example) {
    }

    /**
     * Latency over time, in equal buckets over the busy periods: a long stretch without traffic between two of
     * them is left out (the axis breaks there). Series values are µs, -1 where a bucket has no value.
     *
     * @param startMicros  start of bucket 0
     * @param bucketMicros bucket width
     * @param requests     exchanges starting in each bucket
     * @param stalls       stalls starting in each bucket
     * @param outside      exchanges outside the buckets (clocks far from the rest of the capture)
     * @param periods      the busy periods, in time order; the first starts at bucket 0
     */
    public record Timeline(long startMicros, long bucketMicros, long[] requests, long[] stalls, long outside,
                           List<Series> series, List<Period> periods) {

        /** The start of bucket {@code i}. */
        public long bucketStart(int i) {
            Period p = periods.get(0);
            for (Period q : periods) {
                if (q.firstBucket() <= i) {
                    p = q;
                }
            }
            return p.startMicros() + (i - p.firstBucket()) * bucketMicros;
        }
    }

    /** A busy period of the timeline: its buckets start at {@code firstBucket}, the first at {@code startMicros}. */
    public record Period(long startMicros, int firstBucket, int buckets) {
    }

    /** One line of the timeline chart. */
    public record Series(String name, String label, long[] values) {
    }

    /**
     * One of the worst connections.
     *
     * @param anchor       the page anchor of its flow graph
     * @param why          why it is on the list
     * @param stallEvidence the engine's words for its longest stall, or null
     * @param ladder       its flow graph
     */
    public record Connection(String anchor, long stream, String client, String server, long firstMicros,
                             long durationMicros,
                             long packets, long payloadBytes, long requests, long stalls, long stallMicros,
                             Long maxTtfbMicros, Long maxResponseMicros, long retransmissions, String connState,
                             String history, String vantage, String why, String stallEvidence, Ladder ladder) {
    }

    /**
     * A flow graph: the connection's packets as arrows between client and server. Long connections are shown in
     * part: the first frames (handshake) and a window around the longest stall (or the slowest exchange).
     *
     * @param source      where the packets came from, or null
     * @param unavailable why there is no flow graph, or null
     * @param frames      frames of the connection in the capture
     * @param rows        the frames shown
     */
    public record Ladder(String source, String unavailable, long frames, List<LadderRow> rows) {
    }

    /**
     * One arrow of a flow graph.
     *
     * @param framesSkipped frames of the connection not shown before this one
     * @param relMicros     time since the connection's first frame
     * @param deltaMicros   time since the previous frame of the connection (shown or not)
     * @param fromClient    direction
     * @param flags         TCP flags ("SYN, ACK")
     * @param seq           relative sequence number
     * @param ack           relative acknowledgement number (-1 without ACK)
     * @param len           payload length
     * @param info          start of an HTTP message carried, or ""
     * @param mark          HELD, DELAYED_ACK, RESUMED, RETRANSMISSION, DUP_ACK, ZERO_WINDOW, or ""
     * @param note          what the mark means here, or ""
     */
    public record LadderRow(long framesSkipped, int fileIndex, long frame, long relMicros, long deltaMicros,
                            boolean fromClient, String flags, long seq, long ack, int len, int window, String info,
                            String mark, String note) {
    }

    /** One request/response exchange. */
    public record Request(long stream, int index, long startMicros, String server, String method, String target,
                          String host, Integer status, Long ttfbMicros, Long responseMicros, Long stallMicros,
                          long requestBytes, long responseBytes) {
    }

    /**
     * How the numbers were measured.
     *
     * @param vantage         connections per inferred vantage point
     * @param vantageText     what that means for the numbers
     * @param ackDelayMethods ACK delays by how they were obtained (DIRECT, ESTIMATED, UNCORRECTED)
     * @param notes           the estimators, in words
     */
    public record Method(Map<String, Long> vantage, String vantageText, Map<String, Long> ackDelayMethods,
                         List<String> notes) {
    }

    /** The bounds that keep the page small whatever the size of the capture. */
    public record Limits(int endpoints, int chartedEndpoints, int worstConnections, int ladderRows,
                         int slowestRequests, int files, int timelineBuckets, int skippedReasons,
                         int histogramBinsPerDecade) {
    }
}
