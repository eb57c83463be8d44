package io.ackscope.report;

import io.ackscope.tcp.Cause;

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

    /** The findings for one endpoint, most important first; "no stall" when there is none. */
    static List<ReportData.Finding> of(EndpointStats e) {
        List<ReportData.Finding> f = new ArrayList<>();
        if (e.serverHeld.count > 0) {
            f.add(serverHeld(e));
        }
        if (e.clientHeld.count > 0) {
            f.add(clientHeld(e));
        }
        if (e.stalls() == 0) {
            f.add(noStall(e));
        }
        if (e.rto.count > 0) {
            f.add(waits(Cause.RETRANSMISSION_TIMEOUT, "Retransmission timeouts",
                    "Segments or their acknowledgements were lost, and the sender waited for its retransmission "
                            + "timer before sending them again. Each timeout is at least 200 ms on Linux.",
                    "retransmission timeouts", e.rto));
        }
        if (e.zeroWindow.count > 0) {
            f.add(waits(Cause.ZERO_WINDOW, "Receiver stopped reading (zero window)",
                    "A receiving application did not read its data fast enough; its buffer filled, it advertised "
                            + "a zero window, and the sender had to stop until it read again.",
                    "zero-window waits", e.zeroWindow));
        }
        return f;
    }

    private static ReportData.Finding waits(Cause cause, String title, String explanation, String what,
                                            EndpointStats.Waits w) {
        return new ReportData.Finding(cause.name(), "problem", title, explanation,
                evidence(count(w.count) + " " + what + " cost " + duration(w.micros) + " in total; the longest "
                                + duration(w.maxMicros) + ".",
                        w.example == null ? null : "Longest, stream " + w.exampleStream + ": " + w.example),
                cause.fixes, List.of(w.exampleStream));
    }

    private static ReportData.Finding serverHeld(EndpointStats e) {
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
                        + plural(e.serverHeld.count, "stall", "stalls") + "); " + band(e.serverHeld),
                "The held data left " + duration(e.serverHeld.resumeGap.percentile(0.5))
                        + " after that ACK arrived (median): the sender was waiting for exactly that ACK.",
                responseComparison(e),
                duration(e.stallMicros) + " lost to stalls in total: " + percent(e.stallShare())
                        + " of all response time to this server.",
                "Longest, stream " + e.serverHeld.exampleStream + ": " + e.serverHeld.example);
        return new ReportData.Finding(Cause.NAGLE_SERVER_HELD.name(), "problem",
                "Responses wait for the client's delayed ACK (Nagle × delayed ACK)",
                "The server writes each response in more than one piece with Nagle's algorithm on (TCP_NODELAY "
                        + "off). Nagle sends the first piece and holds the rest until the first is acknowledged. "
                        + "The client has nothing to send back yet, so it delays its acknowledgement (about "
                        + "40 ms on Linux, up to 200 ms on Windows), hoping to combine it with data. Each side waits for "
                        + "the other until the client's delayed-ACK timer fires; then the rest of the response "
                        + "leaves at once. " + where,
                ev, Cause.NAGLE_SERVER_HELD.fixes, List.of(e.serverHeld.exampleStream));
    }

    private static ReportData.Finding clientHeld(EndpointStats e) {
        long ack = e.clientHeld.ackDelay.percentile(0.5);
        List<String> ev = evidence(
                plural(e.clientHeld.count, "request", "requests") + " waited for the server's ACK, " + duration(ack)
                        + " after the data (median); " + band(e.clientHeld),
                "The held request data left " + duration(e.clientHeld.resumeGap.percentile(0.5))
                        + " after that ACK arrived (median).",
                "Longest, stream " + e.clientHeld.exampleStream + ": " + e.clientHeld.example);
        return new ReportData.Finding(Cause.NAGLE_CLIENT_HELD.name(), "problem",
                "Requests wait for the server's delayed ACK (Nagle × delayed ACK)",
                "The client writes each request in more than one piece with Nagle's algorithm on. Nagle sends the "
                        + "first piece and holds the rest until it is acknowledged; the server, waiting for the "
                        + "whole request, delays its acknowledgement until its delayed-ACK timer fires. Only then "
                        + "does the rest of the request leave, and the server can answer.",
                ev, Cause.NAGLE_CLIENT_HELD.fixes, List.of(e.clientHeld.exampleStream));
    }

    private static ReportData.Finding noStall(EndpointStats e) {
        AckShare acks = delayedAcks(e);
        String what = e.requests > 0 ? Format.plural(e.requests, "request", "requests") : "the data";
        List<String> ev = evidence(
                "Checked " + what + " on " + Format.plural(e.connections, "connection", "connections")
                        + ": no data waited for a delayed acknowledgement.",
                acks.total == 0 ? null : percent(acks.delayed, acks.total) + " of " + plural(acks.total, "ACK", "ACKs")
                        + (acks.total == 1 ? " was" : " were") + " delayed" + (acks.delayed > 0 ? ", but no data was waiting for them." : "."),
                e.metrics[EndpointStats.TTFB].size() == 0 ? null : "Time to first byte: p50 "
                        + duration(e.metrics[EndpointStats.TTFB].percentile(0.5)) + ", p99 "
                        + duration(e.metrics[EndpointStats.TTFB].percentile(0.99)) + "; response time p99 "
                        + duration(e.metrics[EndpointStats.RESPONSE].percentile(0.99)) + ".");
        return new ReportData.Finding("NO_STALL", "ok", "No Nagle × delayed-ACK stall found",
                "No request or response waited for the other side's delayed acknowledgement.", ev, List.of(),
                List.of());
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

    private static String band(EndpointStats.Held h) {
        long in40 = h.in40Band, in200 = h.in200Band, n = h.count;
        if (in40 * 2 >= n) {
            return percent(in40, n) + " of them in the 36–50 ms band of the Linux/FreeBSD delayed-ACK timer.";
        }
        if (in200 * 2 >= n) {
            return percent(in200, n) + " of them in the 180–230 ms band of the Windows (or Linux maximum) "
                    + "delayed-ACK timer.";
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

    /**
     * Below this share of the endpoint's requests held up by timer stalls, the headline says the stall is rare: it
     * is real, but it does not explain a service that is slow in general (one stalled request among half a million
     * made the old headline read like the seed case).
     */
    static final double RARE_STALL_SHARE = 0.01;

    /**
     * "Stall found: WHAT wait ~D for the ACKER's delayed ACK", or "Rare stall: HELD of OF WHAT waited ..." when fewer
     * than {@link #RARE_STALL_SHARE} of {@code of} were held up.
     */
    private static String stallHeadline(long held, long of, String what, long ackMicros, String acker) {
        String tail = " ~" + duration(ackMicros) + " for the " + acker + "'s delayed ACK";
        return of > 0 && (double) held / of < RARE_STALL_SHARE
                ? "Rare stall: " + count(held) + " of " + count(of) + " " + what + " waited" + tail
                : "Stall found: " + what + " wait" + tail;
    }

    /** The answer at the top of the page, from the endpoints (busiest first). */
    static ReportData.Verdict verdict(List<EndpointStats> endpoints, long requests, long connections) {
        EndpointStats worst = null;
        int stalled = 0;
        long lateAckWaits = 0;
        for (EndpointStats e : endpoints) {
            lateAckWaits += e.stalls() - e.timerStalls();
            if (e.timerStalls() > 0) {
                stalled++;
                if (worst == null || e.stallMicros > worst.stallMicros) {
                    worst = e;
                }
            }
        }
        if (worst != null) {
            boolean serverHeld = worst.serverHeld.count >= worst.clientHeld.count;
            String others = stalled > 1 ? " " + Format.plural(stalled - 1, "other server endpoint shows",
                    "other server endpoints show") + " the same kind of stall." : "";
            if (serverHeld) {
                long ack = worst.serverHeld.ackDelay.percentile(0.5);
                String who = worst.laterRequestsStalled > 0
                        ? percent(worst.laterRequestsStalled, worst.laterRequests)
                        + " of requests after the first on a keep-alive connection ("
                        + count(worst.laterRequestsStalled) + " of " + count(worst.laterRequests) + ") were held up"
                        : Format.plural(worst.serverHeld.count, "stall", "stalls") + " held responses up";
                long held = worst.laterRequestsStalled > 0 ? worst.laterRequestsStalled : worst.serverHeld.count;
                long of = worst.laterRequestsStalled > 0 ? worst.laterRequests : worst.requests;
                return new ReportData.Verdict(true, stallHeadline(held, of, "responses from " + worst.server, ack,
                        "client"),
                        who + ": the server sends with Nagle's algorithm on and the client delays its "
                                + "acknowledgement, so each of these responses takes ~" + duration(ack)
                                + " longer. Stalls are " + percent(worst.stallShare()) + " of all response time."
                                + others, Cause.NAGLE_SERVER_HELD.fixes);
            }
            long ack = worst.clientHeld.ackDelay.percentile(0.5);
            return new ReportData.Verdict(true, stallHeadline(worst.clientHeld.count, worst.requests,
                    "requests to " + worst.server, ack, "server"),
                    plural(worst.clientHeld.count, "request was", "requests were")
                            + " held up: the client sends with Nagle's "
                            + "algorithm on and the server delays its acknowledgement. Stalls are "
                            + percent(worst.stallShare()) + " of all response time." + others, Cause.NAGLE_CLIENT_HELD.fixes);
        }
        long rto = 0, zw = 0, rtoMicros = 0, zwMicros = 0;
        for (EndpointStats e : endpoints) {
            rto += e.rto.count;
            rtoMicros += e.rto.micros;
            zw += e.zeroWindow.count;
            zwMicros += e.zeroWindow.micros;
        }
        StringBuilder s = new StringBuilder();
        s.append(requests > 0 ? Format.plural(requests, "request", "requests") + " on " : "")
                .append(Format.plural(connections, "connection", "connections")).append(" to ")
                .append(Format.plural(endpoints.size(), "server endpoint", "server endpoints"))
                .append(": no request or response waited for a delayed-ACK timer.");
        if (lateAckWaits > 0) {
            s.append(' ').append(Format.plural(lateAckWaits, "shorter wait", "shorter waits"))
                    .append(" for an ACK that was late for another reason are listed with the endpoints below.");
        }
        if (!endpoints.isEmpty() && endpoints.get(0).metrics[EndpointStats.RESPONSE].size() > 0) {
            EndpointStats top = endpoints.get(0);
            s.append(endpoints.size() == 1 ? " " : " Busiest endpoint, " + top.server + ": ")
                    .append(endpoints.size() == 1 ? "Response time" : "response time").append(" p50 ")
                    .append(duration(top.metrics[EndpointStats.RESPONSE].percentile(0.5))).append(", p99 ")
                    .append(duration(top.metrics[EndpointStats.RESPONSE].percentile(0.99))).append('.');
        }
        if (rto > 0) {
            s.append(' ').append(plural(rto, "retransmission timeout", "retransmission timeouts")).append(" cost ").append(duration(rtoMicros))
                    .append(" (see below).");
        }
        if (zw > 0) {
            s.append(' ').append(plural(zw, "zero-window wait", "zero-window waits")).append(" cost ").append(duration(zwMicros))
                    .append(" (see below).");
        }
        return new ReportData.Verdict(false, "No stall found", s.toString(), List.of());
    }
}
