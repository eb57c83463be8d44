package io.ackscope.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * decode() allocates nothing: measured with the JVM's per-thread allocation counter around a loop over every
 * packet of the corpus (a realistic mix of link types, tunnels, truncated and malformed packets). This is an
 * allocation check, not a timing assertion.
 */
class DecoderAllocationTest {

    private static final int WARM_UP_ROUNDS = 20;
    private static final int MEASURED_ROUNDS = 20;

    @Test
    void decodingTheCorpusMixAllocatesNothing() throws IOException {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "this JVM counts allocated bytes per thread");
        threads.setThreadAllocatedMemoryEnabled(true);

        // All packets in one array, so the loop itself allocates nothing either.
        List<FuzzInputs.Sample> samples = FuzzInputs.corpusPackets();
        int n = samples.size();
        int[] linkTypes = new int[n];
        int[] offsets = new int[n];
        int[] lengths = new int[n];
        long[] originals = new long[n];
        int total = 0;
        for (FuzzInputs.Sample s : samples) {
            total += s.bytes().length;
        }
        byte[] all = new byte[total];
        int at = 0;
        for (int i = 0; i < n; i++) {
            FuzzInputs.Sample s = samples.get(i);
            System.arraycopy(s.bytes(), 0, all, at, s.bytes().length);
            linkTypes[i] = s.linkType();
            offsets[i] = at;
            lengths[i] = s.bytes().length;
            originals[i] = s.originalLength();
            at += s.bytes().length;
        }

        PacketDecoder d = new PacketDecoder();
        long first = decodeAll(d, all, linkTypes, offsets, lengths, originals);
        long sink = first;
        for (int r = 1; r < WARM_UP_ROUNDS; r++) {
            sink += decodeAll(d, all, linkTypes, offsets, lengths, originals);
        }
        long thread = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(thread);
        long decoded = 0;
        long[] rounds = new long[MEASURED_ROUNDS];
        for (int r = 0; r < MEASURED_ROUNDS; r++) {
            rounds[r] = decodeAll(d, all, linkTypes, offsets, lengths, originals);
            sink += rounds[r];
            decoded += n;
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        System.out.printf("decoder allocation: %d bytes over %d decodes (%.5f bytes/packet), checksum %d%n",
                allocated, decoded, (double) allocated / decoded, sink);
        assertTrue(decoded > 400_000, "decodes measured: " + decoded);
        // The counter's own bookkeeping can show a few hundred bytes; a single allocation per packet would be
        // at least 16 bytes x 400,000.
        assertTrue(allocated < 4096, allocated + " bytes allocated over " + decoded + " decodes");
        // the reused decoder gives the same fields every round: nothing of one packet leaks into the next round
        for (long round : rounds) {
            assertEquals(first, round, "checksum of the decoded fields, one round");
        }
    }

    private static long decodeAll(PacketDecoder d, byte[] all, int[] linkTypes, int[] offsets, int[] lengths,
                                  long[] originals) {
        long sum = 0;
        for (int i = 0; i < linkTypes.length; i++) {
            d.decode(linkTypes[i], all, offsets[i], lengths[i], originals[i]);
            sum += d.payloadLength() + d.status().ordinal() + d.srcPort();
        }
        return sum;
    }
}
