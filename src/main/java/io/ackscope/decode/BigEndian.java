package io.ackscope.decode;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Unchecked network-byte-order reads. Callers check the bounds first (the array access itself would still throw
 * {@link ArrayIndexOutOfBoundsException}; the decoder's length checks make sure it never does).
 */
final class BigEndian {
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private BigEndian() {
    }

    static int u8(byte[] b, int i) {
        return b[i] & 0xff;
    }

    static int u16(byte[] b, int i) {
        return (short) SHORT.get(b, i) & 0xffff;
    }

    /** The 32-bit value as an int (callers needing it unsigned use {@link #u32}). */
    static int i32(byte[] b, int i) {
        return (int) INT.get(b, i);
    }

    static long u32(byte[] b, int i) {
        return (int) INT.get(b, i) & 0xffff_ffffL;
    }

    static long i64(byte[] b, int i) {
        return (long) LONG.get(b, i);
    }
}
