package io.ackscope.report;

import io.ackscope.tcp.Cause;

import java.util.List;

import static io.ackscope.report.Format.count;
import static io.ackscope.report.Format.duration;
import static io.ackscope.report.Format.percent;
import static io.ackscope.report.Format.plural;

/**
 * The answer at the top of the page: the costliest cause of the {@code findings} table that cost at least 1% of
 * its endpoint's response time ({@code tcp/CauseRanking}, the rule {@code diagnose} applies), in words, with its
 * fixes and the flow graph that shows it; "No cause found" when no cause reaches that share. A cause below it is
 * never the verdict, however it is named.
 */
final class VerdictText {
    private VerdictText() {
    }

    /**
     * Below this share of the endpoint's requests held up by stalls, the headline says the stall is rare: it is
     * real and costly enough to be the verdict, but it does not explain a service that is slow in general.
     */
    static final double RARE_STALL_SHARE = 0.01;

    /**
     * The verdict.
     *
     * @param causes    the causes of the selected endpoints, costliest first
     * @param endpoints the endpoints, the most time lost first
     */
    static ReportData.Verdict of(CauseFindings causes, List<EndpointStats> endpoints, long requests,
                                 long connections) {
        CauseFindings.Row top = null;
        int others = 0;
        for (CauseFindings.Row r : causes.rows) {
            if (r.verdict()) {
                if (top == null) {
                    top = r;
                } else {
                    others++;
                }
            }
        }
        if (top == null) {
            return noCause(causes, endpoints, requests, connections);
        }
        String more = (others == 0 ? "" : " " + plural(others, "other cause", "other causes")
                + " also cost at least 1% of an endpoint's response time (listed below).")
                + unattributed(top.endpoint);
        String evidence = top.drawn ? Selection.anchor(top.evidenceKey) : null;
        List<String> fixes = top.cause == null ? List.of() : top.cause.fixes;
        EndpointStats e = top.endpoint;
        if (top.cause == Cause.NAGLE_SERVER_HELD && e.serverHeld.count > 0) {
            long ack = e.serverHeld.ackDelay.percentile(0.5);
            String who = e.laterRequestsStalled > 0
                    ? percent(e.laterRequestsStalled, e.laterRequests)
                    + " of requests after the first on a keep-alive connection ("
                    + count(e.laterRequestsStalled) + " of " + count(e.laterRequests) + ") were held up"
                    : plural(e.serverHeld.count, "stall", "stalls") + " held responses up";
            long held = e.laterRequestsStalled > 0 ? e.laterRequestsStalled : e.serverHeld.count;
            long of = e.laterRequestsStalled > 0 ? e.laterRequests : e.requests;
            return new ReportData.Verdict(true, top.causeName,
                    stallHeadline(held, of, "responses from " + e.server, ack, "client"),
                    who + ": the server sends with Nagle's algorithm on and the client delays its acknowledgement, "
                            + "so each of these responses takes ~" + duration(ack) + " longer (" + Findings.timer(ack)
                            .words + "). Stalls are " + percent(top.share) + " of all response time." + more,
                    Findings.timer(ack).fixes(top.cause), evidence);
        }
        if (top.cause == Cause.NAGLE_CLIENT_HELD && e.clientHeld.count > 0) {
            long ack = e.clientHeld.ackDelay.percentile(0.5);
            return new ReportData.Verdict(true, top.causeName, stallHeadline(e.clientHeld.count, e.requests,
                    "requests to " + e.server, ack, "server"),
                    plural(e.clientHeld.count, "request was", "requests were") + " held up: the client sends with "
                            + "Nagle's algorithm on and the server delays its acknowledgement (" + Findings.timer(ack)
                            .words + "). Stalls are " + percent(top.share) + " of all response time." + more,
                    Findings.timer(ack).fixes(top.cause), evidence);
        }
        String title = top.cause == null ? top.causeName : top.cause.title();
        return new ReportData.Verdict(true, top.causeName, title + " at " + e.server + ": " + percent(top.share)
                + " of its response time", Findings.cost(top) + more, fixes, evidence);
    }

    /**
     * The verdict with a warning for each source whose files do not follow on from each other (its verdict may mix
     * separate captures: {@link SourceNotes}) added to its summary.
     */
    static ReportData.Verdict withSources(ReportData.Verdict v, List<ReportData.Source> sources) {
        StringBuilder more = new StringBuilder();
        for (ReportData.Source s : sources) {
            if (s.followOnWarning() != null) {
                more.append(" Warning: ").append(s.followOnWarning()).append('.');
            }
        }
        return more.isEmpty() ? v : new ReportData.Verdict(v.found(), v.cause(), v.headline(), v.summary() + more,
                v.fixes(), v.evidence());
    }

    /**
     * " Causes found explain X of its response time; Y is unattributed." for an endpoint whose explained share is
     * known ({@code findings.explained_share}), else "".
     */
    static String unattributed(EndpointStats e) {
        if (Double.isNaN(e.explainedShare)) {
            return "";
        }
        return " Causes found at " + e.server + " explain " + percent(e.explainedShare) + " of its response time; "
                + percent(1 - e.explainedShare) + " is unattributed.";
    }

    /**
     * "Stall found: WHAT wait ~D for the ACKER's delayed ACK", or "Rare stall: HELD of OF WHAT waited ..." when fewer
     * than {@link #RARE_STALL_SHARE} of {@code of} were held up.
     */
    static String stallHeadline(long held, long of, String what, long ackMicros, String acker) {
        String tail = " ~" + duration(ackMicros) + " for the " + acker + "'s delayed ACK";
        return of > 0 && (double) held / of < RARE_STALL_SHARE
                ? "Rare stall: " + count(held) + " of " + count(of) + " " + what + " waited" + tail
                : "Stall found: " + what + " wait" + tail;
    }

    private static ReportData.Verdict noCause(CauseFindings causes, List<EndpointStats> endpoints, long requests,
                                              long connections) {
        StringBuilder s = new StringBuilder();
        s.append(requests > 0 ? plural(requests, "request", "requests") + " on " : "")
                .append(plural(connections, "connection", "connections")).append(" to ")
                .append(plural(endpoints.size(), "server endpoint", "server endpoints"));
        if (!causes.present) {
            s.append(": these tables have no findings table (made by an older ackscope); run analyze again for "
                    + "the causes of latency.");
        } else {
            s.append(": no cause cost 1% or more of an endpoint's response time.");
        }
        if (!causes.rows.isEmpty()) {
            s.append(' ').append(plural(causes.rows.size() + causes.notShown, "smaller cause is",
                    "smaller causes are")).append(" listed below.");
        }
        EndpointStats busiest = null;
        for (EndpointStats e : endpoints) {
            if (busiest == null || e.requests > busiest.requests) {
                busiest = e;
            }
        }
        if (busiest != null && busiest.metrics[EndpointStats.RESPONSE].size() > 0) {
            s.append(endpoints.size() == 1 ? " Response time" : " Busiest endpoint, " + busiest.server
                    + ": response time").append(" p50 ")
                    .append(duration(busiest.metrics[EndpointStats.RESPONSE].percentile(0.5))).append(", p99 ")
                    .append(duration(busiest.metrics[EndpointStats.RESPONSE].percentile(0.99))).append('.');
        }
        return new ReportData.Verdict(false, null, "No cause found", s.toString(), List.of(), null);
    }
}
