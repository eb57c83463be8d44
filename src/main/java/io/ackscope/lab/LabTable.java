package io.ackscope.lab;

import java.util.List;
import java.util.Locale;

/** The lab's before/after table: per configuration, what the load measured and what the analysis found. */
public final class LabTable {

    private static final String[] HEADER = {"configuration", "load p50", "load p99", "req/s", "stalls found",
        "later requests stalled", "ACK delay in stalls", "verdict"};
    private static final boolean[] RIGHT = {false, true, true, true, true, true, true, false};

    private LabTable() {
    }

    /** The table as aligned text, with a legend under it. */
    public static String text(Lab.Result result) {
        List<String[]> rows = new java.util.ArrayList<>();
        rows.add(HEADER);
        for (Lab.Run r : result.runs()) {
            rows.add(cells(r));
        }
        int[] width = new int[HEADER.length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            String[] row = rows.get(r);
            for (int i = 0; i < row.length; i++) {
                if (i > 0) {
                    sb.append("  ");
                }
                pad(sb, row[i], width[i], RIGHT[i] && r > 0, i == row.length - 1);
            }
            sb.append('\n');
        }
        sb.append(legend(result));
        return sb.toString();
    }

    /** The same table in Markdown, for the README of the captures. */
    static String markdown(Lab.Result result) {
        StringBuilder sb = new StringBuilder("| file |");
        for (String h : HEADER) {
            sb.append(' ').append(h).append(" |");
        }
        sb.append("\n|---|");
        for (boolean right : RIGHT) {
            sb.append(right ? "---:|" : "---|");
        }
        sb.append('\n');
        for (Lab.Run r : result.runs()) {
            sb.append("| `").append(r.captureFile().getFileName()).append("` |");
            String[] c = cells(r);
            c[0] = "`" + c[0] + "`";
            for (String cell : c) {
                sb.append(' ').append(cell).append(" |");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    static String legend(Lab.Result result) {
        return "load: ackscope load's latency percentiles and requests/s. stalls found: Nagle x delayed-ACK "
                + "stalls in the captures, found by " + result.analysis() + ": data held by Nagle until the peer's "
                + "ACK, which came 5 ms or more after the data; \"timer\" when a delayed-ACK timer sent that ACK "
                + "(36-50 ms or 180-230 ms), \"other\" when it came late for another reason (sent when the client "
                + "got to read, or when it closed the connection at the end of the run). later requests stalled: "
                + "the share of requests after the first on a connection that lost time to a stall. ACK delay in "
                + "stalls: median (min-max). verdict: STALL when there are timer stalls on " + pct(Lab.STALL_SHARE)
                + " or more of the later requests and the load's median is " + Lab.STALL_MICROS / 1000 + " ms or "
                + "more; no stall when there are timer stalls on under " + pct(Lab.RARE_SHARE) + " of them and the "
                + "median is under " + Lab.FAST_MICROS / 1000 + " ms; DISAGREE otherwise.\n";
    }

    private static String[] cells(Lab.Run r) {
        LoadFigures l = r.loadFigures();
        StallFigures a = r.analysis();
        String stalls = a.stalls() == 0 ? "0" : a.timerStalls() + " timer, " + (a.stalls() - a.timerStalls())
                + " other";
        String later = fmt("%.1f%%", 100 * a.laterStalledShare()) + " of " + a.laterExchanges();
        String ack = a.stalls() > 0 ? ms(a.stallAckDelayP50()) + " ms (" + ms(a.stallAckDelayMin()) + "-"
                + ms(a.stallAckDelayMax()) + ")" : "-";
        Lab.Verdict v = r.verdict();
        String verdict = switch (v) {
            case STALL -> "STALL";
            case NO_STALL -> "no stall";
            case DISAGREE -> "DISAGREE";
        };
        if ((v == Lab.Verdict.STALL) != r.setup().expectsStall() || v == Lab.Verdict.DISAGREE) {
            verdict += " (unexpected)";
        }
        return new String[] {r.setup().label(), fmt("%.2f ms", l.p50Millis()), fmt("%.2f ms", l.p99Millis()),
            fmt("%.0f", l.requestsPerSec()), stalls, later, ack, verdict};
    }

    private static String pct(double share) {
        return fmt("%.0f%%", 100 * share);
    }

    private static String ms(long micros) {
        return micros >= 10_000 ? fmt("%.1f", micros / 1000.0) : fmt("%.2f", micros / 1000.0);
    }

    private static void pad(StringBuilder sb, String s, int width, boolean right, boolean last) {
        if (right) {
            sb.append(" ".repeat(width - s.length())).append(s);
        } else {
            sb.append(s);
            if (!last) {
                sb.append(" ".repeat(width - s.length()));
            }
        }
    }

    private static String fmt(String f, Object... args) {
        return String.format(Locale.ROOT, f, args);
    }
}
