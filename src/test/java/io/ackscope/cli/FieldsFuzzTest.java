package io.ackscope.cli;

import io.ackscope.fields.FrameFields;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.beust.jcommander.JCommander;
import io.ackscope.capture.LinkTypes;
import io.ackscope.decode.FuzzInputs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutated corpus packets written to a pcap per link type and printed with every field: the cell writers read
 * the packet bytes at offsets the decoder gives, so this checks they stay inside the capture whatever the bytes.
 */
class FieldsFuzzTest {

    private static final int PACKETS_PER_FILE = 4000;

    @TempDir
    Path tmp;

    @Test
    void everyFieldPrintsForMutatedPacketsUnderEveryLinkType() throws Exception {
        long seed = Long.getLong("ackscope.fuzz.seed", System.nanoTime());
        SplittableRandom rnd = new SplittableRandom(seed);
        List<FuzzInputs.Sample> corpus = FuzzInputs.corpusPackets();
        List<String> args = new ArrayList<>();
        for (FrameFields.Field f : FrameFields.all()) {
            args.add("-e");
            args.add(f.name());
        }
        int[] linkTypes = {LinkTypes.EN10MB, LinkTypes.LINUX_SLL, LinkTypes.LINUX_SLL2, LinkTypes.RAW,
            LinkTypes.NULL, LinkTypes.LOOP, LinkTypes.IPV4, LinkTypes.IPV6};
        byte[] buf = new byte[1 << 17];
        for (int linkType : linkTypes) {
            Path file = tmp.resolve("fuzz-" + linkType + ".pcap");
            try (OutputStream out = Files.newOutputStream(file)) {
                ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
                out.write(h.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0)
                        .putInt(1 << 17).putInt(linkType).array());
                for (int i = 0; i < PACKETS_PER_FILE; i++) {
                    FuzzInputs.Sample s = corpus.get(rnd.nextInt(corpus.size()));
                    int len = s.bytes().length;
                    System.arraycopy(s.bytes(), 0, buf, 0, len);
                    len = FuzzInputs.mutate(rnd, buf, 0, len);
                    long orig = rnd.nextInt(4) == 0 ? rnd.nextLong(0, 1L << 32) : s.originalLength();
                    ByteBuffer r = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
                    out.write(r.putInt(i).putInt(0).putInt(len).putInt((int) orig).array());
                    out.write(buf, 0, len);
                }
            }
            ByteArrayOutputStream rows = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            FieldsCommand cmd = new FieldsCommand(new PrintStream(rows, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            List<String> a = new ArrayList<>(List.of("-r", file.toString()));
            a.addAll(args);
            JCommander.newBuilder().addObject(cmd).build().parse(a.toArray(new String[0]));
            assertEquals(0, cmd.run(), "seed " + seed + ", link type " + linkType + ": "
                    + err.toString(StandardCharsets.UTF_8));
            String[] lines = rows.toString(StandardCharsets.UTF_8).split("\n");
            assertEquals(PACKETS_PER_FILE + 1, lines.length, "seed " + seed + ": one row per packet");
            for (String line : lines) {
                assertEquals(FrameFields.all().size(), line.split("\t", -1).length, "seed " + seed + ": " + line);
            }
        }
    }
}
