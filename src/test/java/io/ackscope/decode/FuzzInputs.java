package io.ackscope.decode;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import java.io.IOException;
import java.nio.file.Files;
import io.ackscope.capture.Corpus;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/** Inputs for fuzzing: the corpus's real packets and mutations of them. */
public final class FuzzInputs {
    private FuzzInputs() {
    }

    /** Values that steer a decoder into its branches: versions, ethertype bytes, protocol numbers, lengths. */
    private static final int[] INTERESTING = {0x00, 0x01, 0x02, 0x04, 0x05, 0x06, 0x08, 0x0a, 0x0f, 0x11, 0x18,
        0x1e, 0x22, 0x29, 0x2b, 0x2c, 0x2f, 0x33, 0x3a, 0x3b, 0x3c, 0x40, 0x45, 0x4f, 0x50, 0x60, 0x65, 0x81, 0x86,
        0x88, 0x91, 0xa8, 0xc2, 0xdd, 0xf0, 0xf9, 0xfe, 0xff};

    /** A real packet with its link type and original length. */
    public record Sample(int linkType, byte[] bytes, long originalLength) {
    }

    /** One of the values that steer a decoder into its branches. */
    public static int interesting(SplittableRandom rnd) {
        return INTERESTING[rnd.nextInt(INTERESTING.length)];
    }

    /** Applies 1 to 3 mutations in place; returns the new captured length. */
    public static int mutate(SplittableRandom rnd, byte[] buf, int off, int capLen) {
        int rounds = 1 + rnd.nextInt(3);
        for (int r = 0; r < rounds && capLen > 0; r++) {
            int at = off + rnd.nextInt(Math.min(capLen, rnd.nextBoolean() ? 80 : capLen));
            switch (rnd.nextInt(6)) {
                case 0:
                    buf[at] ^= (byte) (1 << rnd.nextInt(8));
                    break;
                case 1:
                    buf[at] = (byte) interesting(rnd);
                    break;
                case 2:
                    buf[at] = (byte) rnd.nextInt(256);
                    break;
                case 3:
                    capLen = rnd.nextInt(capLen + 1); // as a snap length would cut it
                    break;
                case 4:
                    if (at + 1 < off + capLen) {  // a 16-bit length or type field
                        buf[at] = (byte) interesting(rnd);
                        buf[at + 1] = (byte) interesting(rnd);
                    }
                    break;
                default:
                    int n = Math.min(rnd.nextInt(1, 16), off + capLen - at);
                    Arrays.fill(buf, at, at + n, rnd.nextBoolean() ? (byte) 0 : (byte) 0xff);
                    break;
            }
        }
        return capLen;
    }

    /** Every packet of every corpus capture, copied out of the reader's buffer. */
    public static List<Sample> corpusPackets() throws IOException {
        Path dir = Corpus.dir();
        List<Sample> out = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng")).sorted()
                    .toList();
        }
        for (Path p : files) {
            try (CaptureReader r = CaptureReader.open(p)) {
                while (r.next()) {
                    out.add(new Sample(r.linkType(), Arrays.copyOfRange(r.data(), r.dataOffset(),
                            r.dataOffset() + r.capturedLength()), r.originalLength()));
                }
            } catch (CaptureException e) {
                // a damaged file: keep the packets before the damage
            }
        }
        return out;
    }
}
