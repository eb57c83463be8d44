package io.ackscope.cli;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The rows of {@code ackscope conv}, held outside the heap until they are printed in tshark's order (most frames
 * first, then stream number): each row's text goes to a temporary file as the engine emits it, and the heap keeps 20
 * bytes per stream (a sort key, the row's offset and length, in blocks that are never copied), so a capture of
 * millions of connections prints with a small heap. A stream emitted twice (an attempt the engine emitted early and then continued) keeps its last row.
 */
final class ConvRows implements Closeable {
    private final Path file;
    private final OutputStream spill;
    private long written;
    /** Entries per block: the per-stream arrays grow a block at a time, never copied. */
    private static final int BLOCK = 1 << 16;
    /** Per stream: (Integer.MAX_VALUE - frames) << 32 | stream, or -1 when the stream has no row yet. */
    private long[][] keys = new long[0][];
    private long[][] offsets = new long[0][];
    private int[][] lengths = new int[0][];
    private long streams;
    private long rows;

    ConvRows() throws IOException {
        file = Files.createTempFile("ackscope-conv-", ".tsv");
        spill = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
    }

    /** Adds the row of {@code stream}, which has {@code frames} frames. */
    void add(long stream, long frames, CharSequence row) throws IOException {
        if (stream >= Integer.MAX_VALUE || frames >= Integer.MAX_VALUE) {
            throw new IOException("conv supports up to 2^31 connections and 2^31 frames per connection");
        }
        int s = (int) stream;
        while (s >= (long) keys.length * BLOCK) {
            int n = keys.length;
            keys = Arrays.copyOf(keys, n + 1);
            keys[n] = new long[BLOCK];
            Arrays.fill(keys[n], -1);
            offsets = Arrays.copyOf(offsets, n + 1);
            offsets[n] = new long[BLOCK];
            lengths = Arrays.copyOf(lengths, n + 1);
            lengths[n] = new int[BLOCK];
        }
        byte[] b = row.toString().getBytes(StandardCharsets.UTF_8);
        spill.write(b);
        if (keys[s / BLOCK][s % BLOCK] < 0) {
            rows++;
        }
        keys[s / BLOCK][s % BLOCK] = ((long) (Integer.MAX_VALUE - frames) << 32) | s;
        offsets[s / BLOCK][s % BLOCK] = written;
        lengths[s / BLOCK][s % BLOCK] = b.length;
        written += b.length;
        streams = Math.max(streams, s + 1L);
    }

    /** Number of rows (streams with a row). */
    long rows() {
        return rows;
    }

    /** Prints every row, each followed by a newline, in tshark's order. */
    void print(PrintStream out) throws IOException {
        spill.flush();
        long[] order = new long[(int) streams];
        for (int b = 0, at = 0; at < order.length; b++, at += BLOCK) {
            System.arraycopy(keys[b], 0, order, at, Math.min(BLOCK, order.length - at));
        }
        keys = null;     // the sorted copy replaces them
        Arrays.sort(order);
        ByteBuffer window = ByteBuffer.allocate(1 << 16);
        long windowStart = 0;
        window.limit(0);
        byte[] row = new byte[256];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            for (long k : order) {
                if (k < 0) {
                    continue;
                }
                int s = (int) k;
                long at = offsets[s / BLOCK][s % BLOCK];
                int len = lengths[s / BLOCK][s % BLOCK];
                if (row.length < len) {
                    row = new byte[Math.max(len, row.length * 2)];
                }
                if (at < windowStart || at + len > windowStart + window.limit()) {
                    // rows mostly come in the order they were written: read ahead from this one
                    window.clear();
                    if (len > window.capacity()) {
                        window = ByteBuffer.allocate(len);
                    }
                    windowStart = at;
                    while (window.hasRemaining() && ch.read(window, at + window.position()) > 0) {
                        // fill the window
                    }
                    window.flip();
                }
                window.get((int) (at - windowStart), row, 0, len);
                out.write(row, 0, len);
                out.write('\n');
            }
        }
    }

    @Override
    public void close() throws IOException {
        try {
            spill.close();
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
