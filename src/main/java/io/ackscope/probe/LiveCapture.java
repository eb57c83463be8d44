package io.ackscope.probe;

import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapDumper;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapStat;
import org.pcap4j.core.Pcaps;

import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code tcpdump -w}: a live capture through libpcap with a BPF filter, written to a classic pcap file with
 * nanosecond timestamps (magic {@code a1b23c4d}).
 *
 * <p>Packets never cross into Java: {@link #run} is libpcap's {@code pcap_loop} with {@code pcap_dump} as the
 * callback, as in tcpdump. Capturing starts in {@link #open}; a caller may announce readiness once it returns.
 * {@link #stop()} (any thread, also a signal handler) ends the loop after a grace period of two read timeouts, so
 * packets already in the kernel's ring are written; {@link #finish()} then closes the file and reports counts.
 *
 * <p>Usage: {@code open}, {@code run} on one thread, {@code stop} from anywhere, {@code finish} after {@code run}
 * returned.
 */
public final class LiveCapture implements Closeable {

    /** tcpdump's default snap length. */
    public static final int DEFAULT_SNAPLEN = 262_144;
    /** Kernel ring timeout: how long a partly filled block waits before libpcap sees it. */
    static final int READ_TIMEOUT_MS = 100;
    /** Time between a stop request and the end of the loop, so queued packets are written. */
    static final long STOP_GRACE_MS = 2L * READ_TIMEOUT_MS;

    /** What a finished capture did; {@code file} is null for a capture written to a stream. */
    public record Result(long captured, long receivedByFilter, long droppedByKernel, long droppedByInterface,
                         Path file) {
    }

    private final PcapHandle handle;
    private final PcapDumper dumper;
    private final Path file;
    /** Set when the capture goes to a stream ({@code -w -}) rather than to {@link #file}. */
    private final PipedPcapOutput piped;
    private final ScheduledExecutorService timer;
    private volatile boolean stopRequested;
    private boolean finished;
    private boolean closed;

    private LiveCapture(PcapHandle handle, PcapDumper dumper, Path file, PipedPcapOutput piped) {
        this.handle = handle;
        this.dumper = dumper;
        this.file = file;
        this.piped = piped;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "capture-stop");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts capturing on {@code device} into {@code file} (overwritten).
     *
     * @param filter      BPF expression, or empty for everything
     * @param bufferBytes kernel ring size, or 0 for libpcap's default
     */
    public static LiveCapture open(String device, String filter, int snaplen, int bufferBytes, Path file)
            throws PcapNativeException, NotOpenException {
        PcapHandle h = openFiltered(device, filter, snaplen, bufferBytes);
        try {
            PcapDumper d = h.dumpOpen(file.toString());
            return new LiveCapture(h, d, file, null);
        } catch (PcapNativeException | NotOpenException | RuntimeException e) {
            h.close();
            throw e;
        }
    }

    /**
     * Starts capturing on {@code device} into {@code sink} (standard output for {@code -w -}): the same pcap bytes
     * as a file would hold, and nothing else.
     */
    public static LiveCapture open(String device, String filter, int snaplen, int bufferBytes, OutputStream sink)
            throws PcapNativeException, NotOpenException, IOException {
        PcapHandle h = openFiltered(device, filter, snaplen, bufferBytes);
        PipedPcapOutput piped = null;
        try {
            piped = PipedPcapOutput.open(sink);
            PcapDumper d = h.dumpOpen(piped.path().toString());
            return new LiveCapture(h, d, null, piped);
        } catch (PcapNativeException | NotOpenException | IOException | RuntimeException e) {
            h.close();
            if (piped != null) {
                piped.close();
            }
            throw e;
        }
    }

    private static PcapHandle openFiltered(String device, String filter, int snaplen, int bufferBytes)
            throws PcapNativeException, NotOpenException {
        PcapHandle h = Libpcap.openLive(device, snaplen, READ_TIMEOUT_MS, false, bufferBytes);
        try {
            if (filter != null && !filter.isBlank()) {
                h.setFilter(filter, BpfProgram.BpfCompileMode.OPTIMIZE);
            }
            return h;
        } catch (PcapNativeException | NotOpenException | RuntimeException e) {
            h.close();
            throw e;
        }
    }

    /** Link type as libpcap names it, such as {@code EN10MB (Ethernet)}. */
    public String linkType() {
        try {
            return Pcaps.dataLinkValToName(handle.getDlt().value()) + " ("
                    + Pcaps.dataLinkValToDescription(handle.getDlt().value()) + ")";
        } catch (PcapNativeException e) {
            return handle.getDlt().toString();
        }
    }

    public int snaplen() throws NotOpenException {
        return handle.getSnapshot();
    }

    /** Ends the capture after {@code nanos} from now. */
    public void stopAfter(long nanos) {
        timer.schedule(this::stop, nanos, TimeUnit.NANOSECONDS);
    }

    /** Asks the capture to end; returns at once. Idempotent; safe from any thread. */
    public void stop() {
        if (stopRequested) {
            return;
        }
        stopRequested = true;
        // Repeated until the loop has ended: a pcap_breakloop that lands before pcap_loop has started (a signal
        // right after the ready line, on a loaded machine) could otherwise be lost and leave the capture running.
        timer.scheduleWithFixedDelay(this::breakLoop, STOP_GRACE_MS, STOP_GRACE_MS, TimeUnit.MILLISECONDS);
    }

    private void breakLoop() {
        try {
            handle.breakLoop();
        } catch (NotOpenException e) {
            // already closed: the loop is over anyway
        }
    }

    /**
     * Captures on the calling thread until {@code count} packets were written (0: no limit) or {@link #stop()}.
     */
    public void run(int count) throws PcapNativeException, NotOpenException {
        if (stopRequested) {
            return;
        }
        try {
            handle.loop(count <= 0 ? -1 : count, dumper);
        } catch (InterruptedException e) {
            // pcap4j reports pcap_breakloop as InterruptedException; it is how stop() ends the loop
        }
    }

    /** Reads libpcap's counters, flushes and closes the file, and counts the records written. */
    public Result finish() throws PcapNativeException, NotOpenException, IOException {
        if (finished) {
            throw new IllegalStateException("capture already finished");
        }
        finished = true;
        PcapStat st = handle.getStats();
        dumper.flush();
        long records;
        if (piped != null) {
            dumper.close(); // the end of the pipe's stream: the copier finishes
            try {
                records = piped.finish();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while writing the capture", e);
            } finally {
                close();
            }
        } else {
            close();
            records = countRecords(file);
        }
        return new Result(records, st.getNumPacketsReceived(), st.getNumPacketsDropped(),
                st.getNumPacketsDroppedByIf(), file);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        timer.shutdownNow();
        try {
            // A breakLoop() still running on the timer must not race pcap_close below.
            timer.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (dumper.isOpen()) {
            dumper.close();
        }
        handle.close();
        if (piped != null) {
            try {
                piped.close();
            } catch (IOException e) {
                // a temporary pipe left behind in /tmp is all that is lost
            }
        }
    }

    /**
     * Counts the records of the pcap file libpcap just wrote, read back with ackscope's own reader: the exact
     * number of packets captured, as tcpdump reports it.
     */
    static long countRecords(Path file) throws IOException {
        try (CaptureReader r = CaptureReader.open(file)) {
            long n = 0;
            while (r.next()) {
                n++;
            }
            return n;
        } catch (CaptureException e) {
            throw new IOException("the capture just written is unreadable: " + e.getMessage(), e);
        }
    }
}
