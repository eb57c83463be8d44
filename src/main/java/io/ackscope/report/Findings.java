package io.ackscope.report;

import io.ackscope.tcp.Cause;
import io.ackscope.tcp.DelayedAckTimer;

import java.util.ArrayList;
import java.util.List;

import static io.ackscope.report.Format.count;
import static io.ackscope.report.Format.duration;
import static io.ackscope.report.Format.percent;
import static io.ackscope.report.Format.plural;

/**
 * The diagnosis in words: what happens, the evidence from the tables, and what to change (the fixes of each
 * {@link Cause}, the one catalogue). Written for a reader who has never heard of delayed ACKs; every number in it
 * comes from the tables.
 */
final class Findings {
    private Findings() {
    }

    /**
     * The findings for one endpoint: one per cause of its {@code findings} rows, costliest first, each a problem
     * when it cost at least 1% of the response time and minor below; "no cause found" when it has none. The
     * Nagle × delayed-ACK causes get their full explanation from the stalls; any other cause is shown from the
     * row and the {@link Cause} catalogue, so a new cause needs no change here.
     */
    static List<ReportData.Finding> of(EndpointStats e) {
        List<ReportData.Finding> f = new ArrayList<>();
        for (CauseFindings.Row r : e.causes) {
            if (r.cause == Cause.NAGLE_SERVER_HELD && e.serverHeld.count > 0) {
                f.add(serverHeld(e, r));
            } else if (r.cause == Cause.NAGLE_CLIENT_HELD && e.clientHeld.count > 0) {
                f.add(clientHeld(e, r));
            } else {
                f.add(generic(r));
            }
        }
        if (f.isEmpty()) {
            f.add(noCause(e));
        }
        return f;
    }

    private static String severity(CauseFindings.Row r) {
        return r.verdict() ? "problem" : "minor";
    }

    private static String example(CauseFindings.Row r) {
        return r.drawn ? Selection.anchor(r.evidenceKey) : null;
    }

    /** What the row says, in words: the occurrences, what they cost, the requests they hit, the frames. */
    static String cost(CauseFindings.Row r) {
        String counted = r.cause == Cause.CONNECTION_CHURN
                ? " (" + plural(r.count, "SYN", "SYNs") + " on a 4-tuple closed less than 60 s before: TIME_WAIT "
                + "collisions)"
                : r.count != r.events ? " (count " + count(r.count) + ")" : "";
        return plural(r.events, "occurrence", "occurrences") + counted + " on " + plural(r.connections, "connection", "connections") + " cost "
                + duration(r.timeLostMicros) + ", " + percent(r.share) + " of the response time; "
                + plural(r.requests, "request", "requests") + " affected.";
    }

    private static ReportData.Finding generic(CauseFindings.Row r) {
        List<String> ev = evidence(cost(r), r.frames.length == 0 ? null : "Evidence frames: " + frames(r.frames)
                + ".");
        return new ReportData.Finding(r.causeName, severity(r), r.cause == null ? r.causeName : r.cause.title(),
                "", ev, r.cause == null ? List.of() : r.cause.fixes, example(r));
    }

    static String frames(long[] frames) {
        StringBuilder sb = new StringBuilder();
        for (long f : frames) {
            sb.append(sb.length() == 0 ? "" : ", ").append(f);
        }
        return sb.toString();
    }

    private static ReportData.Finding serverHeld(EndpointStats e, CauseFindings.Row r) {
        long ack = e.serverHeld.ackDelay.percentile(0.5);
        String where = e.stallAfterFirstByteMicros >= e.stallBeforeFirstByteMicros
                ? "The wait falls after the first byte of the response (the first piece leaves at once), so time "
                + "to first byte looks normal while responses complete about " + duration(ack) + " late."
                : "The wait falls before the first byte of the response, so time to first byte itself grows by "
                + "about " + duration(ack) + ".";
        List<String> ev = evidence(
                e.requests == 0 ? plural(e.serverHeld.count, "stall", "stalls")
                        + ", outside any request/response exchange."
                        : count(e.laterRequestsStalled) + " of " + plural(e.laterRequests, "request", "requests")
                        + " after the first on a keep-alive connection (" + percent(e.laterRequestsStalled,
                        e.laterRequests) + ") lost time to a stall; " + count(e.firstRequestsStalled) + " of "
                        + plural(e.requests - e.laterRequests, "first request", "first requests")
                        + " on a connection did.",
                "The client's ACK came " + duration(ack) + " after the data (median of "
                        + plural(e.serverHeld.count, "stall", "stalls") + "): " + timer(ack).words + "; "
                        + band(e.serverHeld),
                "The held data left " + duration(e.serverHeld.resumeGap.percentile(0.5))
                        + " after that ACK arrived (median): the sender was waiting for exactly that ACK.",
                responseComparison(e),
                cost(r),
                "Longest, stream " + e.serverHeld.exampleStream + ": " + e.serverHeld.example);
        return new ReportData.Finding(Cause.NAGLE_SERVER_HELD.name(), severity(r), Cause.NAGLE_SERVER_HELD.title(),
                "The server writes each response in more than one piece with Nagle's algorithm on (TCP_NODELAY "
                        + "off). Nagle sends the first piece and holds the rest until the first is acknowledged. "
                        + "The client has nothing to send back yet, so it delays its acknowledgement (about "
                        + "40 ms on Linux; up to 200 ms on Windows, on macOS, and on Linux when the round trip is "
                        + "200 ms or more), hoping to combine it with data. Each side waits for "
                        + "the other until the client's delayed-ACK timer fires; then the rest of the response "
                        + "leaves at once. " + where,
                ev, timer(ack).fixes(Cause.NAGLE_SERVER_HELD), example(r));
    }

    private static ReportData.Finding clientHeld(EndpointStats e, CauseFindings.Row r) {
        long ack = e.clientHeld.ackDelay.percentile(0.5);
        List<String> ev = evidence(
                plural(e.clientHeld.count, "request", "requests") + " waited for the server's ACK, " + duration(ack)
                        + " after the data (median): " + timer(ack).words + "; " + band(e.clientHeld),
                "The held request data left " + duration(e.clientHeld.resumeGap.percentile(0.5))
                        + " after that ACK arrived (median).",
                cost(r),
                "Longest, stream " + e.clientHeld.exampleStream + ": " + e.clientHeld.example);
        return new ReportData.Finding(Cause.NAGLE_CLIENT_HELD.name(), severity(r), Cause.NAGLE_CLIENT_HELD.title(),
                "The client writes each request in more than one piece with Nagle's algorithm on. Nagle sends the "
                        + "first piece and holds the rest until it is acknowledged; the server, waiting for the "
                        + "whole request, delays its acknowledgement until its delayed-ACK timer fires. Only then "
                        + "does the rest of the request leave, and the server can answer.",
                ev, timer(ack).fixes(Cause.NAGLE_CLIENT_HELD), example(r));
    }

    private static ReportData.Finding noCause(EndpointStats e) {
        AckShare acks = delayedAcks(e);
        String what = e.requests > 0 ? Format.plural(e.requests, "request", "requests") : "the data";
        List<String> ev = evidence(
                "Checked " + what + " on " + Format.plural(e.connections, "connection", "connections")
                        + ": no latency cause found (no stall, no handshake or loss recovery wait, no zero "
                        + "window).",
                acks.total == 0 ? null : percent(acks.delayed, acks.total) + " of " + plural(acks.total, "ACK", "ACKs")
                        + (acks.total == 1 ? " was" : " were") + " delayed" + (acks.delayed > 0 ? ", but no data was waiting for them." : "."),
                e.metrics[EndpointStats.TTFB].size() == 0 ? null : "Time to first byte: p50 "
                        + duration(e.metrics[EndpointStats.TTFB].percentile(0.5)) + ", p99 "
                        + duration(e.metrics[EndpointStats.TTFB].percentile(0.99)) + "; response time p99 "
                        + duration(e.metrics[EndpointStats.RESPONSE].percentile(0.99)) + ".");
        return new ReportData.Finding("NO_CAUSE", "ok", "No cause found",
                "No request or response waited for a delayed acknowledgement, a retransmission or the receiver.",
                ev, List.of(), null);
    }

    private record AckShare(long delayed, long total) {
    }

    private static AckShare delayedAcks(EndpointStats e) {
        long delayed = 0, total = 0;
        for (var side : e.ackClasses.values()) {
            for (var en : side.entrySet()) {
                total += en.getValue();
                if (en.getKey().startsWith("DELAYED")) {
                    delayed += en.getValue();
                }
            }
        }
        return new AckShare(delayed, total);
    }

    /** The delayed-ACK timer class of stalls whose median ACK delay is {@code ackMicros} (µs, as the tables). */
    static DelayedAckTimer timer(long ackMicros) {
        return DelayedAckTimer.of(ackMicros * 1000L);
    }

    private static String band(EndpointStats.Held h) {
        long in40 = h.in40Band, in200 = h.in200Band, n = h.count;
        if (in40 * 2 >= n) {
            return percent(in40, n) + " of them in the 36–50 ms band.";
        }
        if (in200 * 2 >= n) {
            return percent(in200, n) + " of them in the 180–230 ms band.";
        }
        return percent(in40, n) + " in the 40 ms band, " + percent(in200, n) + " in the 200 ms band.";
    }

    private static String responseComparison(EndpointStats e) {
        if (e.responseStalled.size() == 0 || e.responseClean.size() == 0) {
            return null;
        }
        return "Median response time: " + duration(e.responseStalled.percentile(0.5)) + " with a stall, "
                + duration(e.responseClean.percentile(0.5)) + " without.";
    }

    private static List<String> evidence(String... lines) {
        List<String> l = new ArrayList<>();
        for (String s : lines) {
            if (s != null) {
                l.add(s);
            }
        }
        return l;
    }
}
