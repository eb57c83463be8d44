package io.ackscope.capture;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Reads unsigned and signed integers of either byte order from a byte array. Callers check bounds first; the var
 * handles still throw on an out-of-range index, so a missed check fails loudly instead of reading garbage.
 */
final class Endian {
    private static final VarHandle I16_LE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I16_BE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle I32_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I32_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private Endian() {
    }

    static int u16(byte[] b, int off, boolean bigEndian) {
        short v = bigEndian ? (short) I16_BE.get(b, off) : (short) I16_LE.get(b, off);
        return v & 0xffff;
    }

    static int i32(byte[] b, int off, boolean bigEndian) {
        return bigEndian ? (int) I32_BE.get(b, off) : (int) I32_LE.get(b, off);
    }

    static long u32(byte[] b, int off, boolean bigEndian) {
        return Integer.toUnsignedLong(i32(b, off, bigEndian));
    }

    /** A 64-bit value stored as two 32-bit halves, high half first (pcapng timestamps). */
    static long u64Halves(byte[] b, int off, boolean bigEndian) {
        return (u32(b, off, bigEndian) << 32) | u32(b, off + 4, bigEndian);
    }

    /** A 64-bit value in one piece (pcapng if_tsoffset, shb section length). */
    static long i64(byte[] b, int off, boolean bigEndian) {
        long hi = u32(b, bigEndian ? off : off + 4, bigEndian);
        long lo = u32(b, bigEndian ? off + 4 : off, bigEndian);
        return (hi << 32) | lo;
    }
}
