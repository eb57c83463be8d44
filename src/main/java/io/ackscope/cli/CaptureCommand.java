package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import io.ackscope.probe.Libpcap;
import io.ackscope.probe.LiveCapture;
import org.pcap4j.core.PcapNativeException;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ackscope capture -i IFACE -w FILE [FILTER]}: like {@code tcpdump -w}, {@code -w -} included. Scriptable: the "listening on" line
 * is printed only once the capture runs; SIGINT or SIGTERM, {@code -c} or {@code --duration} end it cleanly with the
 * file flushed and the counts printed, exit code 0.
 */
@Parameters(commandDescription = "Capture packets to a pcap file like tcpdump -w (needs root)")
public final class CaptureCommand extends Command {

    @Parameter(description = "FILTER (BPF expression, as tcpdump takes it)")
    List<String> filter = new ArrayList<>();

    @Parameter(names = {"-i", "--interface"}, description = "interface to capture on (lo, eth0, any); as tcpdump, "
            + "the first of libpcap's list (up, not loopback) when not given")
    String device;

    @Parameter(names = {"-w", "--write"}, description = "pcap file to write (overwritten); - writes the capture to "
            + "standard output and the status lines to standard error", required = true)
    String file;

    @Parameter(names = {"-s", "--snaplen"}, description = "bytes kept of each packet",
            validateWith = OptionRange.Positive.class)
    int snaplen = LiveCapture.DEFAULT_SNAPLEN;

    @Parameter(names = {"-c", "--count"}, description = "stop after this many packets (0: no limit)",
            validateWith = OptionRange.NonNegative.class)
    int count;

    @Parameter(names = "--duration", description = "stop after this long (10s, 500ms)",
            converter = DurationConverter.class)
    Duration duration;

    @Parameter(names = {"-B", "--buffer-size"}, description = "kernel capture buffer in KiB (0: libpcap default)",
            validateWith = OptionRange.NonNegative.class)
    int bufferKiB = 32 * 1024;

    @Override
    public int run() throws Exception {
        return run(System.out, System.err);
    }

    /**
     * Captures; the status lines go to {@code out}, or to {@code err} when the capture itself goes to standard
     * output ({@code -w -}), which then gets the pcap bytes only.
     */
    int run(PrintStream stdout, PrintStream err) throws Exception {
        String why = Libpcap.unavailableReason();
        if (why != null) {
            throw new IOException(why);
        }
        boolean toStdout = "-".equals(file);
        PrintStream out = toStdout ? err : stdout;
        if (device == null) {
            device = Libpcap.defaultDevice();
        }
        String expr = String.join(" ", filter);
        try (LiveCapture cap = open(expr, toStdout ? stdout : null)) {
            TerminationSignals.install(cap::stop);
            if (duration != null) {
                cap.stopAfter(duration.toNanos());
            }
            out.printf("listening on %s, link-type %s, snapshot length %d bytes%n", device, cap.linkType(),
                    cap.snaplen());
            out.flush();
            cap.run(count);
            LiveCapture.Result r = cap.finish();
            // tcpdump's words, singular included ("1 packet captured")
            out.printf("%d %s captured%n", r.captured(), packets(r.captured()));
            out.printf("%d %s received by filter%n", r.receivedByFilter(), packets(r.receivedByFilter()));
            out.printf("%d %s dropped by kernel%n", r.droppedByKernel(), packets(r.droppedByKernel()));
            if (r.droppedByInterface() > 0) {
                out.printf("%d %s dropped by interface%n", r.droppedByInterface(), packets(r.droppedByInterface()));
            }
            out.flush();
        }
        return 0;
    }

    private static String packets(long n) {
        return n == 1 ? "packet" : "packets";
    }

    /**
     * Opens the capture into {@code -w}'s file, or into {@code sink} when not null; libpcap's errors are named by
     * what they are about: the interface, filter or file.
     */
    private LiveCapture open(String expr, OutputStream sink) throws Exception {
        try {
            if (sink != null) {
                return LiveCapture.open(device, expr, snaplen, bufferKiB * 1024, sink);
            }
            checkOutputFile("-w", file);
            return LiveCapture.open(device, expr, snaplen, bufferKiB * 1024, Path.of(file));
        } catch (PcapNativeException e) {
            String m = String.valueOf(e.getMessage());
            String what = m.contains("pcap_compile") ? "filter '" + expr + "'"
                    : m.contains(file) ? "-w " + file : "interface " + device;
            throw new CommandFailure(EXIT_FAILURE, what, m, e);
        }
    }
}
