package io.ackscope.report;

import io.ackscope.tcp.CauseRanking;

import java.util.List;
import java.util.Map;

/** How the numbers were measured, in words: the page's last section, from the vantage points and ACK methods. */
final class MethodNotes {
    private MethodNotes() {
    }

    static ReportData.Method of(Map<String, Long> vantage, Map<String, Long> ackMethods) {
        long total = 0;
        String top = "UNKNOWN";
        long topN = -1;
        for (Map.Entry<String, Long> e : vantage.entrySet()) {
            total += e.getValue();
            if (e.getValue() > topN) {
                topN = e.getValue();
                top = e.getKey();
            }
        }
        String share = total == 0 ? "" : " (" + Format.count(topN) + " of " + Format.plural(total, "connection",
                "connections") + ")";
        String text = switch (top) {
            case "LOCAL" -> "Both ends of the connections were on the capturing host" + share
                    + ": every delay is seen directly, with no network path in between.";
            case "NEAR_CLIENT" -> "The capture was taken next to the clients" + share + ": the clients' ACK delays "
                    + "are read directly; the servers' are estimated by subtracting the path RTT.";
            case "NEAR_SERVER" -> "The capture was taken next to the servers" + share + ": the servers' ACK delays "
                    + "are read directly; the clients' are estimated by subtracting the path RTT.";
            case "IN_BETWEEN" -> "The capture was taken on the path between clients and servers" + share
                    + ": ACK delays of both sides are estimated by subtracting the RTT of the leg to that host.";
            default -> total == 0 ? "No connections selected." : "The handshakes were not captured" + share
                    + ", so the vantage point cannot be inferred; ACK delays are upper bounds (they include the "
                    + "path).";
        };
        List<String> notes = List.of(
                "Vantage point: inferred per connection from the two handshake legs (SYN → SYN/ACK is the path to "
                        + "the server and back, SYN/ACK → ACK the path to the client and back); the leg to the "
                        + "near host is only that host's processing time.",
                "Handshake RTT: the sum of both legs as seen at the capture point (tshark's "
                        + "tcp.analysis.initial_rtt).",
                "Data RTT: from a data segment to the ACK that covers its end (tshark's tcp.analysis.ack_rtt), "
                        + "both directions. It includes the receiver's ACK delay, so delayed ACKs show up in it.",
                "ACK delay: for every ACK that newly acknowledges data, the time since the oldest data it "
                        + "acknowledges arrived at the acking host. Read directly where the capture is next to "
                        + "that host (DIRECT), else the path RTT is subtracted (ESTIMATED); without a handshake "
                        + "it is an upper bound (UNCORRECTED).",
                "Time to first byte: first request segment to first response segment, at the capture point. "
                        + "Response time: first request segment to the last response segment before the next "
                        + "request.",
                "Stall (Nagle × delayed ACK): a side has a small segment unacknowledged and sends nothing more "
                        + "although more data is ready; the peer's ACK comes after a delayed-ACK timer, and the "
                        + "next data segment leaves within about a millisecond of that ACK.",
                "Share of time lost to stalls: stall time inside request/response exchanges divided by their "
                        + "total response time, per server endpoint.",
                "Causes: the rows of the findings table that analyze wrote, one per server endpoint and cause, "
                        + "with the time each cost and its share of the endpoint's response time (docs/causes.md). "
                        + "The costliest cause with a share of at least " + Format.percent(CauseRanking.VERDICT_SHARE)
                        + " is the verdict, the rule diagnose applies; smaller ones are listed, never the verdict. "
                        + "Each links to the connection that carries its first evidence frame.",
                "Percentiles are nearest-rank over every value (the smallest value with at least that share of "
                        + "the values at or below it), the same as the latency_summary table. Histograms count "
                        + "the same values in " + ReportBuilder.LIMITS.histogramBinsPerDecade()
                        + " logarithmic bins per decade "
                        + "(one per microsecond below 10 µs).");
        return new ReportData.Method(vantage, text, ackMethods, notes);
    }
}
