package io.ackscope.capture;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/** Test helper: writes byte fixtures field by field in a chosen byte order. */
final class Bytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private boolean bigEndian;

    private Bytes(boolean bigEndian) {
        this.bigEndian = bigEndian;
    }

    static Bytes le() {
        return new Bytes(false);
    }

    static Bytes be() {
        return new Bytes(true);
    }

    Bytes order(boolean big) {
        this.bigEndian = big;
        return this;
    }

    Bytes u8(int v) {
        out.write(v);
        return this;
    }

    Bytes u16(int v) {
        if (bigEndian) {
            out.write(v >>> 8);
            out.write(v);
        } else {
            out.write(v);
            out.write(v >>> 8);
        }
        return this;
    }

    Bytes u32(long v) {
        if (bigEndian) {
            u16((int) (v >>> 16)).u16((int) v);
        } else {
            u16((int) v).u16((int) (v >>> 16));
        }
        return this;
    }

    Bytes u64(long v) {
        if (bigEndian) {
            u32(v >>> 32).u32(v);
        } else {
            u32(v).u32(v >>> 32);
        }
        return this;
    }

    Bytes raw(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    Bytes zeros(int n) {
        out.writeBytes(new byte[n]);
        return this;
    }

    Bytes pad4() {
        while (out.size() % 4 != 0) {
            out.write(0);
        }
        return this;
    }

    int size() {
        return out.size();
    }

    byte[] build() {
        return out.toByteArray();
    }

    /** Payload bytes 0, 1, 2, ... (mod 256), so a misplaced offset shows up as different bytes. */
    static byte[] payload(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed + i);
        }
        return b;
    }

    static CaptureReader open(byte[] file) throws IOException, CaptureException {
        return Captures.open(new ByteArrayInputStream(file), "fixture");
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            o.writeBytes(p);
        }
        return o.toByteArray();
    }
}
