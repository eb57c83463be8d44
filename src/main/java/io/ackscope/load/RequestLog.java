package io.ackscope.load;

import java.util.Arrays;

/**
 * One thread's per-request rows, kept column by column in primitive arrays so that recording a request allocates
 * nothing but the occasional doubling. Times are {@link System#nanoTime()} values; {@link LoadResult} maps them to
 * the wall clock. Written to Parquet after the run, never during it.
 */
final class RequestLog {

    private final int thread;
    private int size;
    private int[] connection;
    private int[] localPort;
    private int[] seqOnConnection;
    private long[] intendedStart;
    private long[] actualStart;
    private long[] end;
    private short[] status;
    private long[] bytes;
    private byte[] error;

    RequestLog(int thread, int initialCapacity) {
        this.thread = thread;
        int n = Math.max(16, initialCapacity);
        connection = new int[n];
        localPort = new int[n];
        seqOnConnection = new int[n];
        intendedStart = new long[n];
        actualStart = new long[n];
        end = new long[n];
        status = new short[n];
        bytes = new long[n];
        error = new byte[n];
    }

    /** Appends one finished request; {@code error} is null when a response came in. */
    void add(int conn, int port, int seq, long intended, long actual, long endNanos, int httpStatus,
             long responseBytes, LoadError err) {
        if (size == end.length) {
            grow();
        }
        int i = size++;
        connection[i] = conn;
        localPort[i] = port;
        seqOnConnection[i] = seq;
        intendedStart[i] = intended;
        actualStart[i] = actual;
        end[i] = endNanos;
        status[i] = (short) httpStatus;
        bytes[i] = responseBytes;
        error[i] = (byte) (err == null ? -1 : err.ordinal());
    }

    private void grow() {
        int n = end.length * 2;
        connection = Arrays.copyOf(connection, n);
        localPort = Arrays.copyOf(localPort, n);
        seqOnConnection = Arrays.copyOf(seqOnConnection, n);
        intendedStart = Arrays.copyOf(intendedStart, n);
        actualStart = Arrays.copyOf(actualStart, n);
        end = Arrays.copyOf(end, n);
        status = Arrays.copyOf(status, n);
        bytes = Arrays.copyOf(bytes, n);
        error = Arrays.copyOf(error, n);
    }

    int thread() {
        return thread;
    }

    int size() {
        return size;
    }

    int connection(int i) {
        return connection[i];
    }

    int localPort(int i) {
        return localPort[i];
    }

    int seqOnConnection(int i) {
        return seqOnConnection[i];
    }

    long intendedStart(int i) {
        return intendedStart[i];
    }

    long actualStart(int i) {
        return actualStart[i];
    }

    long end(int i) {
        return end[i];
    }

    int status(int i) {
        return status[i];
    }

    long bytes(int i) {
        return bytes[i];
    }

    /** The failure of row {@code i}, or null when it got a response. */
    LoadError error(int i) {
        return LoadError.ofCode(error[i]);
    }
}
