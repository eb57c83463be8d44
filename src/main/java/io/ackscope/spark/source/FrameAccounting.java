package io.ackscope.spark.source;

import io.ackscope.decode.DecodeStatus;
import io.ackscope.decode.PacketDecoder;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where every frame of a capture went: handed to the TCP engine, or skipped for a named reason. The identity
 * {@code tcpFrames + sum(skipped) == frames} holds by construction (frames a filter dropped are skipped under its
 * reason), and the decode-status counts sum to {@code frames} too. Mergeable across splits of a file. Nothing is allocated per frame except the first time a
 * (status, layer, reason) or protocol is seen.
 */
public final class FrameAccounting implements Serializable {
    private static final long serialVersionUID = 1L;

    long frames;
    long tcpFrames;
    final long[] byStatus = new long[DecodeStatus.values().length];
    /** Frames without a TCP header, by reason. */
    private final HashMap<String, Long> skipped = new HashMap<>();
    private transient long[] byProtocol;
    private transient long udp, icmp, quotedTcp, notIp;
    private transient HashMap<String, long[]> undecoded;
    private transient HashMap<String, long[]> filtered;

    /** Counts one decoded frame; returns true when it has a TCP header (it goes to the engine). */
    public boolean count(PacketDecoder d) {
        frames++;
        DecodeStatus s = d.status();
        byStatus[s.ordinal()]++;
        if (d.hasTcp()) {
            tcpFrames++;
            return true;
        }
        if (s != DecodeStatus.OK) {
            if (undecoded == null) {
                undecoded = new HashMap<>();
            }
            String key = s + " at " + d.stopLayer() + (d.stopReason() == null ? "" : ": " + d.stopReason());
            undecoded.computeIfAbsent(key, k -> new long[1])[0]++;
        } else if (d.quotedTcp()) {
            quotedTcp++;
        } else if (d.hasUdp()) {
            udp++;
        } else if (d.hasIcmp()) {
            icmp++;
        } else if (d.ipVersion() != 0) {
            if (byProtocol == null) {
                byProtocol = new long[256];
            }
            byProtocol[d.ipProtocol() & 0xff]++;
        } else {
            notIp++;
        }
        return false;
    }

    /**
     * Counts one decoded frame that a {@link io.ackscope.tcp.FrameFilter} dropped, under {@code reason} (one of its
     * four constant reasons: a hash lookup of an interned string and a counter per frame, nothing allocated).
     */
    public void filtered(PacketDecoder d, String reason) {
        frames++;
        byStatus[d.status().ordinal()]++;
        if (filtered == null) {
            filtered = new HashMap<>();
        }
        filtered.computeIfAbsent(reason, k -> new long[1])[0]++;
    }

    /** Moves the per-frame counters into the serializable map; call when a split is done. */
    public FrameAccounting seal() {
        add("ICMP error quoting TCP", quotedTcp);
        add("UDP", udp);
        add("ICMP", icmp);
        add("not IP", notIp);
        if (byProtocol != null) {
            for (int p = 0; p < 256; p++) {
                add("IP protocol " + p, byProtocol[p]);
            }
        }
        if (undecoded != null) {
            undecoded.forEach((k, v) -> add(k, v[0]));
        }
        if (filtered != null) {
            filtered.forEach((k, v) -> add(k, v[0]));
        }
        quotedTcp = udp = icmp = notIp = 0;
        byProtocol = null;
        undecoded = null;
        filtered = null;
        return this;
    }

    private void add(String reason, long n) {
        if (n != 0) {
            skipped.merge(reason, n, Long::sum);
        }
    }

    public void merge(FrameAccounting o) {
        frames += o.frames;
        tcpFrames += o.tcpFrames;
        for (int i = 0; i < byStatus.length; i++) {
            byStatus[i] += o.byStatus[i];
        }
        o.skipped.forEach(this::add);
    }

    public long frames() {
        return frames;
    }

    public long tcpFrames() {
        return tcpFrames;
    }

    public long status(DecodeStatus s) {
        return byStatus[s.ordinal()];
    }

    /** Frames a {@link io.ackscope.tcp.FrameFilter} dropped (part of the skipped ones). */
    public long filteredFrames() {
        long n = 0;
        for (Map.Entry<String, Long> e : skipped.entrySet()) {
            if (io.ackscope.tcp.FrameFilter.isReason(e.getKey())) {
                n += e.getValue();
            }
        }
        return n;
    }

    /** Skipped frames by reason, sorted by reason. */
    public Map<String, Long> skipped() {
        return new TreeMap<>(skipped);
    }
}
