package io.ackscope.probe;

/** Counts probes sent and answered and keeps min/avg/max of the RTTs, as ping's summary line shows them. */
public final class RttStats {
    private int sent;
    private int received;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;
    private long sum;

    public void sent() {
        sent++;
    }

    public void received(long rttNanos) {
        received++;
        min = Math.min(min, rttNanos);
        max = Math.max(max, rttNanos);
        sum += rttNanos;
    }

    public int sentCount() {
        return sent;
    }

    public int receivedCount() {
        return received;
    }

    /** Percentage of probes without an answer, 0 when nothing was sent. */
    public double lossPercent() {
        return sent == 0 ? 0 : 100.0 * (sent - received) / sent;
    }

    /** Smallest RTT in nanoseconds, or -1 without answers. */
    public long minNanos() {
        return received == 0 ? -1 : min;
    }

    public long maxNanos() {
        return received == 0 ? -1 : max;
    }

    public long avgNanos() {
        return received == 0 ? -1 : sum / received;
    }
}
