package io.ackscope.capture;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * RFC 1952 gzip, concatenated members read as one stream, over {@link Inflater} directly: the inflater hands out
 * everything it can decode from the input it has, so a file cut short yields every byte before the cut (as
 * {@code gzip -dc} and tshark do) and only then reports the damage. Reads the source forwards only (pipes, FIFOs,
 * standard input) and never asks it for {@code available()}.
 */
final class GzipInput extends DecompressingInput {
    private static final int FHCRC = 2;
    private static final int FEXTRA = 4;
    private static final int FNAME = 8;
    private static final int FCOMMENT = 16;
    /** RFC 1952 CM value for deflate, the only method defined. */
    private static final int CM_DEFLATE = 8;

    private final InputStream source;
    private final byte[] in = new byte[64 * 1024];
    private int inPos;
    private int inLim;
    /** Compressed offset of {@code in[0]}. */
    private long base;
    private final Inflater inflater = new Inflater(true);
    private final CRC32 crc = new CRC32();
    private long memberBytes;
    private int members;
    private boolean inMember;
    private boolean ended;

    GzipInput(InputStream source) {
        super(Compression.GZIP);
        this.source = source;
    }

    @Override
    long compressedPosition() {
        return inMember ? base + inLim - inflater.getRemaining() : base + inPos;
    }

    @Override
    int produce(byte[] b, int off, int len) throws IOException {
        while (!ended) {
            if (!inMember && !startMember()) {
                ended = true;
                break;
            }
            int n;
            try {
                n = inflater.inflate(b, off, len);
            } catch (DataFormatException e) {
                throw damaged(e.getMessage(), e);
            }
            if (n > 0) {
                crc.update(b, off, n);
                memberBytes += n;
                produced += n;
                return n;
            }
            if (inflater.finished()) {
                inPos = inLim - inflater.getRemaining();
                inMember = false;
                checkTrailer();
            } else if (inflater.needsDictionary()) {
                throw damaged("deflate stream asks for a preset dictionary, which gzip does not use", null);
            } else {
                if (!inflater.needsInput()) {
                    // inflate() returns 0 only for the three states above; the buffer is still the inflater's
                    throw damaged("the deflate stream stopped making progress", null);
                }
                if (!fill()) {
                    throw cutShort();
                }
                inflater.setInput(in, 0, inLim);
                inPos = inLim;
            }
        }
        return -1;
    }

    /** Reads a member header; false at a clean end of the stream (no further member). */
    private boolean startMember() throws IOException {
        int id1 = next();
        if (id1 < 0 && members > 0) {
            return false;
        }
        if (id1 == 0 && members > 0) {
            // zero padding after the last member (tape blocks, preallocated files): ignored, as gzip(1) does
            int c;
            while ((c = next()) == 0) {
                // skip
            }
            if (c < 0) {
                return false;
            }
            throw damaged("data after gzip member " + members + " is zeros, then not another gzip member", null);
        }
        int id2 = next();
        if (id1 != 0x1f || id2 != 0x8b) {
            throw damaged(members == 0 ? "not a gzip stream" : "data after gzip member " + members
                    + " is not another gzip member", null);
        }
        int cm = need();
        int flags = need();
        if (cm != CM_DEFLATE) {
            throw damaged("compression method " + cm + " in member " + (members + 1) + " (only 8, deflate, exists)",
                    null);
        }
        for (int i = 0; i < 6; i++) {   // MTIME (4), XFL, OS
            need();
        }
        if ((flags & FEXTRA) != 0) {
            int xlen = need() | need() << 8;
            for (int i = 0; i < xlen; i++) {
                need();
            }
        }
        if ((flags & FNAME) != 0) {
            while (need() != 0) {
                // zero-terminated original file name
            }
        }
        if ((flags & FCOMMENT) != 0) {
            while (need() != 0) {
                // zero-terminated comment
            }
        }
        if ((flags & FHCRC) != 0) {
            need();
            need();
        }
        members++;
        memberBytes = 0;
        crc.reset();
        inflater.reset();
        inflater.setInput(in, inPos, inLim - inPos);
        inPos = inLim;
        inMember = true;
        return true;
    }

    /** Checks a member's CRC-32 and ISIZE (RFC 1952 section 2.3.1). */
    private void checkTrailer() throws IOException {
        long want = 0;
        for (int i = 0; i < 4; i++) {
            want |= (long) need() << (8 * i);
        }
        long size = 0;
        for (int i = 0; i < 4; i++) {
            size |= (long) need() << (8 * i);
        }
        if (want != crc.getValue()) {
            throw damaged("CRC-32 of member " + members + " does not match its data", null);
        }
        if (size != (memberBytes & 0xffffffffL)) {
            throw damaged("length of member " + members + " does not match its data", null);
        }
    }

    /** The next header or trailer byte; the stream is cut short if there is none. */
    private int need() throws IOException {
        int c = next();
        if (c < 0) {
            throw cutShort();
        }
        return c;
    }

    private int next() throws IOException {
        if (inPos == inLim && !fill()) {
            return -1;
        }
        return in[inPos++] & 0xff;
    }

    /** Refills {@link #in} from the source once everything in it is consumed; false at the end of the source. */
    private boolean fill() throws IOException {
        base += inLim;
        inPos = 0;
        inLim = 0;
        int r;
        do {
            r = source.read(in, 0, in.length);
        } while (r == 0);
        if (r < 0) {
            return false;
        }
        inLim = r;
        return true;
    }

    @Override
    void release() {
        inflater.end();
    }

    @Override
    public void close() throws IOException {
        release();
        source.close();
    }
}
