package io.ackscope.vantage;

import io.ackscope.tcp.Segment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The TCP segments one capture point saw, as parallel primitive arrays (about 60 bytes a segment), and the
 * connections they form. A pair of points is matched from two of these ({@link PairAnalysis}); nothing here
 * depends on the other point.
 *
 * <p>Per segment: its connection ({@code tcp.stream} of this point's own numbering) and direction, sequence and
 * acknowledgement numbers, payload length, flags, TSval (-1 without the timestamp option), IP ID (IPv4
 * identification, 0 for IPv6) and capture time in epoch nanoseconds by this point's clock. Segments are held in
 * the order they were added; {@link #connections()} groups them per connection in capture order.
 */
public final class PointSegments {
    private final String source;
    private int size;
    private long[] stream = new long[256];
    private boolean[] fromOrig = new boolean[256];
    private long[] seq = new long[256];
    private long[] ack = new long[256];
    private int[] len = new int[256];
    private int[] flags = new int[256];
    private long[] tsVal = new long[256];
    private int[] ipId = new int[256];
    private long[] time = new long[256];
    private long[] order = new long[256];
    private final List<PointConnection.Builder> builders = new ArrayList<>();
    private final List<String> damage = new ArrayList<>();
    private List<PointConnection> connections;

    public PointSegments(String source) {
        this.source = source;
    }

    /** The capture point's name (a file, or a source of several files). */
    public String source() {
        return source;
    }

    /**
     * Damage met while reading, one line each ("FILE: byte N: what"): the segments before it were kept, the rest of
     * that file was not read.
     */
    public List<String> damage() {
        return List.copyOf(damage);
    }

    void addDamage(String line) {
        damage.add(line);
    }

    /** Segments held. */
    public int size() {
        return size;
    }

    /**
     * Adds one segment.
     *
     * @param captureOrder where it was read (file-major, then frame): segments of a connection are put in this order
     * @param tuple        the connection's 4-tuple as the originator sent it: src hi, src lo, dst hi, dst lo
     * @param ports        originator port, responder port
     */
    public void add(long streamNo, boolean fromOriginator, long seqNo, long ackNo, int payloadLength, int tcpFlags,
                    long tsValue, int ipIdentification, long timeNanos, long captureOrder, long[] tuple, int[] ports) {
        if (size == stream.length) {
            grow();
        }
        stream[size] = streamNo;
        fromOrig[size] = fromOriginator;
        seq[size] = seqNo;
        ack[size] = ackNo;
        len[size] = payloadLength;
        flags[size] = tcpFlags;
        tsVal[size] = tsValue;
        ipId[size] = ipIdentification;
        time[size] = timeNanos;
        order[size] = captureOrder;
        while (builders.size() <= streamNo) {
            builders.add(null);
        }
        PointConnection.Builder b = builders.get((int) streamNo);
        if (b == null) {
            b = new PointConnection.Builder(streamNo, tuple, ports);
            builders.set((int) streamNo, b);
        }
        b.add(size);
        size++;
        connections = null;
    }

    private void grow() {
        int n = stream.length * 2;
        stream = Arrays.copyOf(stream, n);
        fromOrig = Arrays.copyOf(fromOrig, n);
        seq = Arrays.copyOf(seq, n);
        ack = Arrays.copyOf(ack, n);
        len = Arrays.copyOf(len, n);
        flags = Arrays.copyOf(flags, n);
        tsVal = Arrays.copyOf(tsVal, n);
        ipId = Arrays.copyOf(ipId, n);
        time = Arrays.copyOf(time, n);
        order = Arrays.copyOf(order, n);
    }

    /** This point's connections in stream order, each with its segments in capture order. */
    public List<PointConnection> connections() {
        if (connections == null) {
            List<PointConnection> out = new ArrayList<>();
            for (PointConnection.Builder b : builders) {
                if (b != null) {
                    out.add(b.build(this));
                }
            }
            connections = List.copyOf(out);
        }
        return connections;
    }

    /**
     * A copy whose capture times are {@code t + offsetNanos + driftPpm * (t - t0) / 1e6}, {@code t0} the earliest
     * time held: the same traffic as a clock that is off by that much would have stamped it.
     */
    public PointSegments withClock(long offsetNanos, double driftPpm) {
        long t0 = Long.MAX_VALUE;
        for (int i = 0; i < size; i++) {
            t0 = Math.min(t0, time[i]);
        }
        PointSegments c = new PointSegments(source);
        for (PointConnection pc : connections()) {
            for (int i : pc.segments()) {
                long t = time[i] + offsetNanos + Math.round(driftPpm * (time[i] - t0) / 1e6);
                c.add(stream[i], fromOrig[i], seq[i], ack[i], len[i], flags[i], tsVal[i], ipId[i], t, order[i],
                        pc.tuple(), pc.ports());
            }
        }
        return c;
    }

    public long stream(int i) {
        return stream[i];
    }

    public boolean fromOriginator(int i) {
        return fromOrig[i];
    }

    public long seq(int i) {
        return seq[i];
    }

    public long ack(int i) {
        return ack[i];
    }

    public int payloadLength(int i) {
        return len[i];
    }

    public int flags(int i) {
        return flags[i];
    }

    /** TSval, -1 when the segment has no timestamp option. */
    public long tsVal(int i) {
        return tsVal[i];
    }

    public int ipId(int i) {
        return ipId[i];
    }

    public long timeNanos(int i) {
        return time[i];
    }

    long captureOrder(int i) {
        return order[i];
    }

    /** Where the segment was read, as given to {@link #add} (the Spark job gives its frame number in its source). */
    public long order(int i) {
        return order[i];
    }

    /**
     * Writes segment {@code s}'s 4-tuple client first: {@code tuple} = client address (hi, lo), server address (hi,
     * lo); {@code ports} = client port, server port. {@code fromClient}: the segment was sent by the client.
     */
    public static void clientFirst(Segment s, boolean fromClient, long[] tuple, int[] ports) {
        tuple[0] = fromClient ? s.srcHi : s.dstHi;
        tuple[1] = fromClient ? s.srcLo : s.dstLo;
        tuple[2] = fromClient ? s.dstHi : s.srcHi;
        tuple[3] = fromClient ? s.dstLo : s.srcLo;
        ports[0] = fromClient ? s.srcPort : s.dstPort;
        ports[1] = fromClient ? s.dstPort : s.srcPort;
    }
}
