package io.ackscope.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What Zeek's {@code conn.log} would say of each side's bytes, computed from tshark's dissection of a capture
 * independently of ackscope: tshark's relative sequence numbers (0 at the SYN; 1 at the first segment seen when the
 * SYN was not captured, so a partial side is numbered as Zeek numbers it), per side the furthest sequence number
 * reached (a segment's {@code seq + len}, plus one for a SYN and one for a FIN, or the peer's ACK) less the SYN
 * octet and the FIN's, the sum of {@code ip.len}, and the bytes of that space no captured segment covered.
 * Zeek itself is not installed here; this is its {@code TCP_Endpoint::Size} rule applied to tshark's numbers.
 */
final class TsharkSideBytes {

    /** One side's figures. */
    record Side(long seqBytes, long ipBytes, long missedBytes) {
    }

    private static final class Acc {
        long hi;
        long ackHi;
        long ipBytes;
        boolean fin;
        /** Covered [lo, hi) intervals of relative sequence space. */
        final List<long[]> covered = new ArrayList<>();

        Side side() {
            long top = Math.max(hi, ackHi);
            long size = Math.max(0, top - 1);
            if (fin && size > 0) {
                size--;
            }
            covered.sort((x, y) -> Long.compare(x[0], y[0]));
            long seen = 0;
            long at = 1;   // the SYN octet (or the one a partial side is numbered as though it had) is not data
            for (long[] c : covered) {
                long lo = Math.max(c[0], at);
                long end = Math.min(c[1], top);
                if (end > lo) {
                    seen += end - lo;
                    at = end;
                }
            }
            return new Side(size, ipBytes, Math.max(0, top - 1) - seen);
        }
    }

    private TsharkSideBytes() {
    }

    /**
     * Per {@code tcp.stream}, per sender "address:port", its side's figures (streams in order).
     */
    static Map<Long, Map<String, Side>> of(Path capture) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("tshark", "-n", "-r", capture.toString(), "-o", "tcp.relative_sequence_numbers:TRUE",
                "-T", "fields", "-E", "separator=,", "-e", "tcp.stream", "-e", "ip.src", "-e", "ipv6.src",
                "-e", "tcp.srcport", "-e", "ip.dst", "-e", "ipv6.dst", "-e", "tcp.dstport", "-e", "tcp.seq",
                "-e", "tcp.len", "-e", "tcp.ack", "-e", "tcp.flags.syn", "-e", "tcp.flags.ack",
                "-e", "tcp.flags.fin", "-e", "ip.len", "-e", "ipv6.plen", "tcp")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("tshark failed on " + capture);
        }
        Map<Long, Map<String, Acc>> acc = new TreeMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",", -1);
            long stream = Long.parseLong(f[0]);
            String src = (f[1].isEmpty() ? f[2] : f[1]) + ":" + f[3];
            String dst = (f[4].isEmpty() ? f[5] : f[4]) + ":" + f[6];
            long seq = Long.parseLong(f[7]);
            long len = Long.parseLong(f[8]);
            boolean syn = truth(f[10]);
            boolean ack = truth(f[11]);
            boolean fin = truth(f[12]);
            long ipLen = f[13].isEmpty() ? 40 + Long.parseLong(f[14]) : Long.parseLong(f[13]);
            Map<String, Acc> sides = acc.computeIfAbsent(stream, k -> new HashMap<>());
            Acc s = sides.computeIfAbsent(src, k -> new Acc());
            long end = seq + len + (syn ? 1 : 0) + (fin ? 1 : 0);
            s.hi = Math.max(s.hi, end);
            s.fin |= fin;
            s.ipBytes += ipLen;
            s.covered.add(new long[]{seq, end});
            if (ack && !f[9].isEmpty()) {
                Acc peer = sides.computeIfAbsent(dst, k -> new Acc());
                peer.ackHi = Math.max(peer.ackHi, Long.parseLong(f[9]));
            }
        }
        Map<Long, Map<String, Side>> out = new TreeMap<>();
        acc.forEach((stream, sides) -> {
            Map<String, Side> m = new HashMap<>();
            sides.forEach((k, v) -> m.put(k, v.side()));
            out.put(stream, m);
        });
        return out;
    }

    private static boolean truth(String v) {
        return v.equals("1") || v.equalsIgnoreCase("true");
    }
}
