package io.ackscope.probe;

import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.PcapNetworkInterface.PromiscuousMode;
import org.pcap4j.core.Pcaps;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.List;

/**
 * Loads libpcap for pcap4j and opens live handles the way the probes and the capture need them.
 *
 * <p>pcap4j loads the library through JNA under the name in system property {@value #LIB_PROPERTY} (default
 * {@code pcap}, that is {@code libpcap.so}). Debian ships the unversioned {@code libpcap.so} only in
 * {@code libpcap0.8-dev}; the runtime package {@code libpcap0.8} has {@code libpcap.so.0.8}. {@link #configure()}
 * points pcap4j at the versioned file when the unversioned one is missing, so only the runtime package is needed.
 */
public final class Libpcap {

    /** pcap4j's system property naming the library to load. */
    public static final String LIB_PROPERTY = "org.pcap4j.core.pcapLibName";

    private static final String[] LIB_DIRS = {
        "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
        "/usr/lib64", "/usr/lib", "/usr/local/lib"
    };
    private static final String[] VERSIONED = {"libpcap.so.1", "libpcap.so.0.8"};

    /** Longest loader message quoted in {@link #unavailableReason()}, which is printed on one line. */
    private static final int MAX_REASON = 200;

    private static boolean configured;

    private Libpcap() {
    }

    /**
     * Sets {@value #LIB_PROPERTY} to a versioned libpcap when no unversioned {@code libpcap.so} exists and the
     * property is unset. Must run before any pcap4j class that touches the library is initialised.
     */
    public static synchronized void configure() {
        if (configured) {
            return;
        }
        configured = true;
        if (System.getProperty(LIB_PROPERTY) != null) {
            return;
        }
        for (String dir : LIB_DIRS) {
            if (Files.exists(Path.of(dir, "libpcap.so"))) {
                return; // JNA finds it under the default name
            }
        }
        for (String dir : LIB_DIRS) {
            for (String name : VERSIONED) {
                Path p = Path.of(dir, name);
                if (Files.exists(p)) {
                    System.setProperty(LIB_PROPERTY, p.toString());
                    return;
                }
            }
        }
    }

    /** Why libpcap cannot be used (library missing or failing to load), or null when it loads. */
    public static String unavailableReason() {
        configure();
        try {
            return Pcaps.libVersion() == null ? "libpcap did not report a version" : null;
        } catch (LinkageError e) {
            // UnsatisfiedLinkError or the ExceptionInInitializerError / NoClassDefFoundError pcap4j raises after it
            String why = String.valueOf(e.getMessage()).replaceAll("\\s*\\R\\s*", "; ");
            if (why.length() > MAX_REASON) {
                why = why.substring(0, MAX_REASON) + "...";
            }
            return "libpcap could not be loaded (" + why + "); install Debian package libpcap0.8";
        }
    }

    /** libpcap's version string, for messages. */
    public static String version() {
        configure();
        return Pcaps.libVersion();
    }

    /**
     * Opens a live, non-promiscuous handle with nanosecond timestamps.
     *
     * @param device      interface name
     * @param snaplen     bytes kept of each packet
     * @param timeoutMs   read timeout: how long a read waits before returning without a packet
     * @param immediate   deliver each packet at once (probes) rather than in batches (bulk capture)
     * @param bufferBytes kernel ring size in bytes, or 0 for libpcap's default (2 MiB)
     */
    public static PcapHandle openLive(String device, int snaplen, int timeoutMs, boolean immediate, int bufferBytes)
            throws PcapNativeException {
        configure();
        PcapHandle.Builder b = new PcapHandle.Builder(device)
                .snaplen(snaplen)
                .promiscuousMode(PromiscuousMode.NONPROMISCUOUS)
                .timeoutMillis(timeoutMs)
                .timestampPrecision(PcapHandle.TimestampPrecision.NANO)
                .immediateMode(immediate);
        if (bufferBytes > 0) {
            b.bufferSize(bufferBytes);
        }
        return b.build();
    }

    /**
     * The interface tcpdump captures on when given no {@code -i}: the first of libpcap's device list, which libpcap
     * orders so that interfaces that are up and running come first and loopback after the others.
     *
     * @throws PcapNativeException when the list cannot be read or holds no device
     */
    public static String defaultDevice() throws PcapNativeException {
        configure();
        List<PcapNetworkInterface> all = Pcaps.findAllDevs();
        if (all == null || all.isEmpty()) {
            throw new PcapNativeException("no capture device found (name one with -i)");
        }
        return all.get(0).getName();
    }

    /** pcap4j's timestamp of the last packet read, as nanoseconds since the Unix epoch. */
    static long epochNanos(Timestamp ts) {
        return Math.floorDiv(ts.getTime(), 1000L) * 1_000_000_000L + ts.getNanos();
    }
}
