package io.ackscope.capture;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A listed file's first records: whether it is a capture (by magic), its format and compression, the timestamp of
 * its first record that has one (what orders a source's files), and where a pcapng says it was written. Read on up
 * to {@link Archive#PROBE_THREADS} threads, since a listing of thousands of files waits mostly on opening them.
 */
final class FirstRecords {
    private FirstRecords() {
    }

    /** What a file's first records say. */
    record Probe(long firstNanos, String format, String compression, Archive.Metadata metadata, String notCapture) {
    }

    static List<Probe> probeAll(ArchiveStore store, List<ArchiveLister.Candidate> chosen) throws IOException {
        if (chosen.size() <= 1) {
            List<Probe> out = new ArrayList<>();
            for (ArchiveLister.Candidate c : chosen) {
                out.add(probe(store, c));
            }
            return out;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(Archive.PROBE_THREADS, chosen.size()), r -> {
            Thread t = new Thread(r, "ackscope-archive-probe");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Probe>> futures = new ArrayList<>();
            for (ArchiveLister.Candidate c : chosen) {
                futures.add(pool.submit(() -> probe(store, c)));
            }
            List<Probe> out = new ArrayList<>();
            for (Future<Probe> f : futures) {
                out.add(f.get());
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the first records", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Reads a file's first records. A file that cannot be opened or is damaged at its start is still a capture
     * (its read reports the damage) without a first timestamp.
     */
    private static Probe probe(ArchiveStore store, ArchiveLister.Candidate c) {
        if (c.entry().stream()) {
            // a FIFO or device (/dev/stdin) can be read once only: the read takes it whole, unprobed
            return new Probe(CaptureReader.NO_TIMESTAMP, null, null, Archive.Metadata.NONE, null);
        }
        String path = c.path();
        InputStream in;
        try {
            in = store.open(path);
        } catch (IOException e) {
            return new Probe(CaptureReader.NO_TIMESTAMP, null, null, Archive.Metadata.NONE, null);
        }
        try {
            Captures.Sniffed s = Captures.sniff(in, path, CaptureReader.DEFAULT_MAX_RECORD_LENGTH);
            if (s.reader() == null) {
                in.close();
                return new Probe(CaptureReader.NO_TIMESTAMP, null, null, Archive.Metadata.NONE, s.notCapture());
            }
            try (CaptureReader r = s.reader()) {
                long first = CaptureReader.NO_TIMESTAMP;
                try {
                    for (int i = 0; i < Archive.PROBE_RECORDS && r.next(); i++) {
                        if (r.hasTimestamp()) {
                            first = r.timestampNanos();
                            break;
                        }
                    }
                } catch (CaptureException e) {
                    // damage within the first records: the read reports it
                }
                CaptureInfo info = r.info();
                return new Probe(first, r.format().label(), info.compression().label(), metadata(info), null);
            }
        } catch (IOException | CaptureException | RuntimeException e) {
            try {
                in.close();
            } catch (IOException ignored) {
                // the read reports what is wrong with the file
            }
            return new Probe(CaptureReader.NO_TIMESTAMP, null, null, Archive.Metadata.NONE, null);
        }
    }

    /** What a file's {@link CaptureInfo} says about where it was written. */
    static Archive.Metadata metadata(CaptureInfo info) {
        if (info.format() != CaptureFormat.PCAPNG) {
            return Archive.Metadata.NONE;
        }
        CaptureInfo.Section s = info.sections().isEmpty() ? null : info.sections().get(0);
        List<String> names = new ArrayList<>();
        for (CaptureInfo.Interface i : info.interfaces()) {
            String n = i.name() != null ? i.name() : i.description();
            names.add(n == null ? "" : bounded(n));
            if (names.size() == CaptureInfo.MAX_COMMENTS) {
                break;
            }
        }
        List<String> comments = info.comments().stream().map(FirstRecords::bounded).toList();
        return s == null ? new Archive.Metadata(null, null, null, names, comments)
                : new Archive.Metadata(bounded(s.hardware()), bounded(s.os()), bounded(s.application()), names,
                        comments);
    }

    private static String bounded(String s) {
        return s == null || s.length() <= Archive.MAX_TEXT ? s : s.substring(0, Archive.MAX_TEXT);
    }
}
