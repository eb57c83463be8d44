package io.ackscope.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ackscope.capture.LinkTypes;
import java.util.EnumMap;
import java.io.IOException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random bytes and mutated real packets (every packet of the shared corpus) through {@link PacketDecoder#decode}
 * under every link type: the decoder must only ever answer with a status, never throw, and what it answers must
 * be consistent (offsets and lengths inside the capture, a reason with every stop).
 *
 * <p>Bounded in time: {@code -Dackscope.fuzz.seconds=N} (default 20); {@code -Dackscope.fuzz.seed=S} replays a run.
 */
class DecoderFuzzTest {

    private static final int[] LINK_TYPES = {LinkTypes.NULL, LinkTypes.EN10MB, LinkTypes.RAW_OPENBSD, 14,
        LinkTypes.RAW, LinkTypes.LOOP, LinkTypes.LINUX_SLL, LinkTypes.IPV4, LinkTypes.IPV6, LinkTypes.LINUX_SLL2, 147};

    @Test
    void randomAndMutatedPacketsOnlyEverGetAStatus() throws IOException {
        long seconds = Long.getLong("ackscope.fuzz.seconds", 20);
        long seed = Long.getLong("ackscope.fuzz.seed", System.nanoTime());
        List<FuzzInputs.Sample> corpus = FuzzInputs.corpusPackets();
        assertTrue(corpus.size() > 20_000, "corpus packets loaded: " + corpus.size());

        SplittableRandom rnd = new SplittableRandom(seed);
        PacketDecoder d = new PacketDecoder();
        Map<DecodeStatus, Long> statuses = new EnumMap<>(DecodeStatus.class);
        Map<Layer, Long> stopLayers = new EnumMap<>(Layer.class);
        byte[] buf = new byte[1 << 17];
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        long runs = 0;
        while (System.nanoTime() < deadline) {
            for (int batch = 0; batch < 1000; batch++) {
                int linkType;
                int off = rnd.nextInt(8);
                int capLen;
                long origLen;
                if (rnd.nextInt(4) == 0) {
                    // random bytes
                    linkType = LINK_TYPES[rnd.nextInt(LINK_TYPES.length)];
                    capLen = rnd.nextInt(rnd.nextBoolean() ? 80 : 1600);
                    for (int i = 0; i < capLen; i++) {
                        buf[off + i] = (byte) (rnd.nextInt(3) == 0 ? FuzzInputs.interesting(rnd)
                                : rnd.nextInt(256));
                    }
                    origLen = capLen + (rnd.nextBoolean() ? 0 : rnd.nextInt(70_000));
                } else {
                    FuzzInputs.Sample s = corpus.get(rnd.nextInt(corpus.size()));
                    linkType = rnd.nextInt(20) == 0 ? LINK_TYPES[rnd.nextInt(LINK_TYPES.length)] : s.linkType();
                    capLen = Math.min(s.bytes().length, buf.length - off);
                    System.arraycopy(s.bytes(), 0, buf, off, capLen);
                    origLen = s.originalLength();
                    capLen = FuzzInputs.mutate(rnd, buf, off, capLen);
                    switch (rnd.nextInt(6)) {
                        case 0: origLen = capLen; break;
                        case 1: origLen = rnd.nextLong(0, 1L << 33); break;
                        case 2: origLen = rnd.nextInt(capLen + 1); break;
                        default: break;
                    }
                }
                try {
                    d.decode(linkType, buf, off, capLen, origLen);
                    checkConsistent(d, off, capLen);
                } catch (Throwable t) {
                    fail("seed " + seed + ", link type " + linkType + ", original length " + origLen + ", packet "
                            + HexFormat.of().formatHex(buf, off, off + capLen), t);
                }
                statuses.merge(d.status(), 1L, Long::sum);
                stopLayers.merge(d.stopLayer(), 1L, Long::sum);
                runs++;
            }
        }
        System.out.println("decoder fuzz: " + runs + " packets in " + seconds + " s, seed " + seed + ", statuses "
                + statuses + ", stop layers " + stopLayers);
        for (DecodeStatus s : DecodeStatus.values()) {
            assertTrue(statuses.getOrDefault(s, 0L) > 0, "fuzzing reached status " + s + ": " + statuses);
        }
        for (Layer l : new Layer[] {Layer.LINK, Layer.VLAN, Layer.IPV4, Layer.IPV6, Layer.IPV6_EXTENSION, Layer.TCP,
            Layer.UDP, Layer.ICMP}) {
            assertTrue(stopLayers.getOrDefault(l, 0L) > 0, "fuzzing stopped at " + l + ": " + stopLayers);
        }
    }

    /** What every caller of the decoder relies on, whatever the bytes. */
    private static void checkConsistent(PacketDecoder d, int off, int capLen) {
        int end = off + capLen;
        assertEquals(end, d.captureEnd());
        if (d.status() == DecodeStatus.OK) {
            assertEquals(Layer.NONE, d.stopLayer());
            assertEquals(null, d.stopReason());
        } else {
            assertTrue(d.stopReason() != null && d.stopLayer() != Layer.NONE, "a stop names its layer and reason");
        }
        assertTrue(d.firstIpv4Offset() < end && d.firstIpv6Offset() < end, "first IP headers start in the capture");
        assertTrue(d.payloadLength() >= 0 && d.capturedPayloadLength() >= 0, "lengths are not negative");
        assertTrue(d.capturedPayloadLength() <= d.payloadLength(), "captured payload within the payload");
        if (d.capturedPayloadLength() > 0) {
            assertTrue(d.payloadOffset() >= off && d.payloadOffset() + d.capturedPayloadLength() <= end,
                    "captured payload inside the capture");
        }
        if (d.hasTcp()) {
            assertTrue(d.transportOffset() >= off && d.transportOffset() + 16 <= end, "TCP fixed fields captured");
            assertTrue(d.tcpHeaderLength() >= 20 && d.srcPort() >= 0 && d.dstPort() >= 0);
            assertTrue(d.seq() >= 0 && d.seq() <= 0xffff_ffffL && d.ack() >= 0 && d.ack() <= 0xffff_ffffL);
            assertTrue(d.sackBlockCount() >= 0 && d.sackBlockCount() <= 4);
            assertTrue(d.ipVersion() == 4 || d.ipVersion() == 6);
        }
        if (d.hasTcpPorts() || d.hasUdpPorts()) {
            assertTrue(d.srcPort() >= 0 && d.srcPort() <= 0xffff && d.dstPort() >= 0 && d.dstPort() <= 0xffff);
        }
        if (d.quotedTcp()) {
            assertTrue(d.quotedTcpBytes() >= 4 && d.quotedTransportOffset() + 4 <= end);
        }
        if (d.transportOffset() >= 0) {
            assertTrue(d.transportOffset() <= end && d.transportLength() >= 0);
        }
    }
}
