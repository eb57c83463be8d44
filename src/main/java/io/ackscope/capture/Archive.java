package io.ackscope.capture;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The capture files of an archive, listed as {@code analyze}, {@code conv} and {@code diagnose} read them: each
 * file once, in its capture source (the capture point that wrote it), in time order within the source.
 *
 * <ul>
 *   <li><b>Inputs</b> are files and directories (read recursively; names starting with {@code .} or {@code _} are
 *       skipped, as Spark's file sources do, and so is any directory that is an ackscope output: it holds an
 *       ackscope {@code _SUCCESS} or a staging directory). A file found in a directory is taken only if its magic
 *       says it is a capture (pcap, pcapng, or one of them inside gzip, zstd or bzip2); the others are listed in
 *       {@link #skipped()}, not reported as damage. A file named as an input is always taken.</li>
 *   <li><b>Identity.</b> Paths are resolved to files ({@link ArchiveStore.Entry#identity()}: device and inode
 *       locally), so a file reached by several paths (a {@code latest.pcap} link, a link to a parent directory, the
 *       same directory given twice) is read once, under the path with the fewest links, then the shortest, then the
 *       first by name. A link that leads back to a directory being listed is a loop: listed in {@link #skipped()},
 *       not followed.</li>
 *   <li><b>Sources</b> ({@link SourceRule}): by default the file's directory relative to the input it came from
 *       ({@code archive/hostA/x.pcap} under {@code archive} is {@code hostA}); a file directly in an input
 *       directory, or named as an input, takes its directory's name.</li>
 *   <li><b>Order.</b> Within a source, files are ordered by the timestamp of their first record (read from the
 *       start of the file; compressed files are decompressed only that far), the file name breaking ties, so
 *       rotated files whose names do not sort in time order ({@code cap}, {@code cap1}, {@code cap10},
 *       {@code cap2}, a wrapped {@code -W} ring) are read in capture order. Sources are ordered by name; a file's
 *       {@link Member#index()} is its position in that order.</li>
 *   <li><b>Copies.</b> A file of a source whose bytes equal an earlier file's of the same source (same length and
 *       first timestamp, then the same SHA-256) is listed in {@link #copies()} and not read. Sources never share
 *       files: two hosts that captured the same traffic are two sources.</li>
 * </ul>
 *
 * <p>The result does not depend on the order in which inputs are given.
 */
public final class Archive implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Records read at most from a file's start to find its first timestamp. */
    public static final int PROBE_RECORDS = 64;
    /** Directories listed at most (links can make a tree of any size out of a few directories). */
    public static final int MAX_DIRECTORIES = 1_000_000;
    /** Threads opening files to read their first records. */
    static final int PROBE_THREADS = 8;
    /** Longest text kept from a pcapng option. */
    static final int MAX_TEXT = 256;

    /**
     * A capture file to read.
     *
     * @param index       position in (source, first timestamp, name) order
     * @param path        the path as the store gave it
     * @param source      index into {@link #sources()}
     * @param length      bytes as stored
     * @param firstNanos  timestamp of the first record that has one (within {@link #PROBE_RECORDS}), or
     *                    {@link CaptureReader#NO_TIMESTAMP}
     * @param format      "pcap" or "pcapng", null when the file could not be opened
     * @param compression "none", "gzip", ...; null when the file could not be opened
     * @param metadata    pcapng section and interface metadata known before the first packet
     */
    public record Member(int index, String path, int source, long length, long firstNanos, String format,
                         String compression, Metadata metadata) implements Serializable {
    }

    /**
     * What a pcapng file says about where it was written (empty for classic pcap), each text at most
     * {@link #MAX_TEXT} characters (untrusted: escape it where shown).
     *
     * @param hardware    shb_hardware of the first section, or null
     * @param os          shb_os, or null
     * @param application shb_userappl, or null
     * @param interfaces  if_name (or if_description) of each interface declared before the first packet
     * @param comments    the first comments ({@link CaptureInfo#MAX_COMMENTS} at most)
     */
    public record Metadata(String hardware, String os, String application, List<String> interfaces,
                           List<String> comments) implements Serializable {
        static final Metadata NONE = new Metadata(null, null, null, List.of(), List.of());
    }

    /** A file of a source that is byte for byte an earlier file of the same source, {@code of}: not read. */
    public record Copy(String path, int source, String of) implements Serializable {
    }

    /** A path not read, and why (not a capture, an ackscope output, a link loop, a dangling link). */
    public record Skipped(String path, String reason) implements Serializable {
    }

    private final List<String> sources;
    private final List<Member> files;
    private final List<Copy> copies;
    private final List<Skipped> skipped;

    private Archive(List<String> sources, List<Member> files, List<Copy> copies, List<Skipped> skipped) {
        this.sources = List.copyOf(sources);
        this.files = List.copyOf(files);
        this.copies = List.copyOf(copies);
        this.skipped = List.copyOf(skipped);
    }

    /** Source names, sorted. */
    public List<String> sources() {
        return sources;
    }

    /** The files to read, in order ({@code files().get(i).index() == i}). */
    public List<Member> files() {
        return files;
    }

    /** Exact copies found and not read. */
    public List<Copy> copies() {
        return copies;
    }

    /** Paths skipped in directories, sorted by path. */
    public List<Skipped> skipped() {
        return skipped;
    }

    /** How each file's source is named. */
    public static final class SourceRule implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String spec;
        private transient Pattern pattern;

        private SourceRule(String spec) {
            this.spec = spec;
        }

        /** The default: the directory relative to the input. */
        public static final SourceRule DIRECTORY = new SourceRule("dir");
        /** Each file its own source. */
        public static final SourceRule FILE = new SourceRule("file");

        /**
         * {@code null} or {@code dir}: {@link #DIRECTORY}; {@code file}: {@link #FILE}; anything else is a regular
         * expression searched for in each file's path, its first group (or the whole match) naming the source.
         */
        public static SourceRule parse(String spec) {
            if (spec == null || spec.equals("dir")) {
                return DIRECTORY;
            }
            if (spec.equals("file")) {
                return FILE;
            }
            SourceRule r = new SourceRule(spec);
            try {
                r.pattern();
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("--source-by: not a regular expression: " + e.getMessage(), e);
            }
            return r;
        }

        private Pattern pattern() {
            if (pattern == null) {
                pattern = Pattern.compile(spec);
            }
            return pattern;
        }

        /**
         * The source of a file.
         *
         * @param root the input directory the file was found in, or null for a file named as an input
         */
        String source(String root, String path) {
            String rel = root == null ? name(parent(path)) + "/" + name(path) : path.substring(root.length() + 1);
            if (this == FILE || spec.equals("file")) {
                return root == null ? rel : name(root) + "/" + rel;
            }
            if (spec.equals("dir")) {
                int slash = rel.lastIndexOf('/');
                return root != null && slash < 0 ? name(root) : rel.substring(0, Math.max(0, slash));
            }
            Matcher m = pattern().matcher(path);
            if (!m.find()) {
                throw new IllegalArgumentException("--source-by " + spec + " does not match " + path);
            }
            String s = m.groupCount() > 0 ? m.group(1) : m.group();
            if (s == null || s.isEmpty()) {
                throw new IllegalArgumentException("--source-by " + spec + " gives an empty source for " + path);
            }
            return s;
        }

        @Override
        public String toString() {
            return spec;
        }
    }

    /** Lists {@code inputs} (files and directories) on {@code store}; see the class comment. */
    public static Archive list(Collection<String> inputs, ArchiveStore store, SourceRule rule) throws IOException {
        return list(inputs, store, rule, List.of());
    }

    /**
     * As {@link #list(Collection, ArchiveStore, SourceRule)}, never reading from the directories {@code excluded}
     * (an output directory about to be written).
     */
    public static Archive list(Collection<String> inputs, ArchiveStore store, SourceRule rule,
                               Collection<String> excluded) throws IOException {
        Lister l = new Lister(store, rule);
        for (String x : excluded) {
            ArchiveStore.Entry e = store.stat(trim(x));
            if (e != null) {
                l.excluded.add(e.identity());
            }
        }
        for (String in : new TreeSet<>(inputs)) {
            String root = trim(in);
            ArchiveStore.Entry e = store.stat(root);
            if (e == null) {
                throw new FileNotFoundException("no capture matches " + in);
            }
            if (e.directory()) {
                l.walk(root, e, root, new ArrayList<>(List.of(e.identity())), e.link());
            } else {
                l.offer(new Candidate(root, rule.source(null, root), e, true, e.link()));
            }
        }
        return l.finish();
    }

    /** A path to a file and the source it would give. */
    private record Candidate(String path, String source, ArchiveStore.Entry entry, boolean named, boolean viaLink) {
        /** Paths through fewer links, then shorter, then by name, then by source win. */
        static final Comparator<Candidate> PREFERRED = Comparator.comparing(Candidate::viaLink)
                .thenComparingInt(c -> depth(c.path)).thenComparing(Candidate::path).thenComparing(Candidate::source);
    }

    /** What a file's first records say. */
    private record Probe(long firstNanos, String format, String compression, Metadata metadata, String notCapture) {
    }

    private static final class Lister {
        final ArchiveStore store;
        final SourceRule rule;
        final Set<Object> excluded = new HashSet<>();
        final Map<Object, Candidate> files = new HashMap<>();
        final Map<String, String> skipped = new TreeMap<>();
        int directories;

        Lister(ArchiveStore store, SourceRule rule) {
            this.store = store;
            this.rule = rule;
        }

        void offer(Candidate c) {
            Candidate old = files.get(c.entry().identity());
            if (old == null) {
                files.put(c.entry().identity(), c);
                return;
            }
            Candidate best = Candidate.PREFERRED.compare(old, c) <= 0 ? old : c;
            boolean named = old.named() || c.named();   // named as an input by any path: taken whatever its magic
            files.put(c.entry().identity(), best.named() == named ? best
                    : new Candidate(best.path(), best.source(), best.entry(), true, best.viaLink()));
        }

        void walk(String dir, ArchiveStore.Entry entry, String root, List<Object> ancestors, boolean viaLink)
                throws IOException {
            if (excluded.contains(entry.identity())) {
                skipped.put(dir, "the output directory");
                return;
            }
            if (++directories > MAX_DIRECTORIES) {
                throw new IOException("more than " + MAX_DIRECTORIES + " directories under the inputs (links?)");
            }
            List<String> children = new ArrayList<>(store.children(dir));
            children.sort(null);
            for (String child : children) {
                String n = name(child);
                if (n.equals("_SUCCESS") && ackscopeMarker(child) || n.startsWith(STAGING_PREFIX)) {
                    skipped.put(dir, "an ackscope output (" + n + ")");
                    return;
                }
            }
            for (String child : children) {
                String n = name(child);
                if (n.startsWith(".") || n.startsWith("_")) {
                    continue;
                }
                ArchiveStore.Entry e = store.stat(child);
                if (e == null) {
                    skipped.put(child, "a dangling link");
                } else if (e.directory()) {
                    int loop = ancestors.indexOf(e.identity());
                    if (loop >= 0) {
                        skipped.put(child, "a link loop: leads back to "
                                + ancestorPath(child, ancestors.size() - loop));
                        continue;
                    }
                    ancestors.add(e.identity());
                    walk(child, e, root, ancestors, viaLink || e.link());
                    ancestors.remove(ancestors.size() - 1);
                } else {
                    offer(new Candidate(child, rule.source(root, child), e, false, viaLink || e.link()));
                }
            }
        }

        /** The directory {@code up} levels above {@code path}. */
        private static String ancestorPath(String path, int up) {
            String p = path;
            for (int i = 0; i < up; i++) {
                p = parent(p);
            }
            return p;
        }

        private boolean ackscopeMarker(String path) {
            try (InputStream in = store.open(path)) {
                return new String(in.readNBytes(64), StandardCharsets.UTF_8).startsWith("{\"tool\":\"ackscope\"");
            } catch (IOException e) {
                return false;
            }
        }

        Archive finish() throws IOException {
            List<Candidate> chosen = new ArrayList<>(files.values());
            chosen.sort(Comparator.comparing(Candidate::path));
            List<Probe> probes = probeAll(chosen);
            Map<String, List<Integer>> bySource = new TreeMap<>();
            for (int i = 0; i < chosen.size(); i++) {
                Candidate c = chosen.get(i);
                Probe p = probes.get(i);
                if (p.notCapture() != null && !c.named()) {
                    skipped.put(c.path(), "not a capture: " + p.notCapture());
                    continue;
                }
                bySource.computeIfAbsent(c.source(), k -> new ArrayList<>()).add(i);
            }
            List<String> sources = new ArrayList<>(bySource.keySet());
            List<Member> members = new ArrayList<>();
            List<Copy> copies = new ArrayList<>();
            for (int s = 0; s < sources.size(); s++) {
                List<Integer> own = bySource.get(sources.get(s));
                own.sort(Comparator.comparingLong((Integer i) -> order(probes.get(i).firstNanos()))
                        .thenComparing(i -> name(chosen.get(i).path())).thenComparing(i -> chosen.get(i).path()));
                Set<Integer> copied = copies(own, chosen, probes, s, copies);
                for (int i : own) {
                    if (copied.contains(i)) {
                        continue;
                    }
                    Candidate c = chosen.get(i);
                    Probe p = probes.get(i);
                    members.add(new Member(members.size(), c.path(), s, c.entry().length(), p.firstNanos(),
                            p.format(), p.compression(), p.metadata()));
                }
            }
            List<Skipped> skips = new ArrayList<>();
            skipped.forEach((p, why) -> skips.add(new Skipped(p, why)));
            return new Archive(sources, members, copies, skips);
        }

        /**
         * Finds the files of one source that are copies of an earlier one (same length and first timestamp, then
         * the same SHA-256), adds them to {@code out} and returns their candidate indexes.
         */
        private Set<Integer> copies(List<Integer> own, List<Candidate> chosen, List<Probe> probes, int source,
                                    List<Copy> out) throws IOException {
            Map<String, List<Integer>> alike = new LinkedHashMap<>();
            for (int i : own) {
                alike.computeIfAbsent(chosen.get(i).entry().length() + " " + probes.get(i).firstNanos(),
                        k -> new ArrayList<>()).add(i);
            }
            Set<Integer> copied = new HashSet<>();
            for (List<Integer> group : alike.values()) {
                if (group.size() < 2) {
                    continue;
                }
                Map<String, Integer> first = new HashMap<>();
                for (int i : group) {
                    String digest = sha256(chosen.get(i).path());
                    Integer original = first.putIfAbsent(digest, i);
                    if (original != null) {
                        copied.add(i);
                        out.add(new Copy(chosen.get(i).path(), source, chosen.get(original).path()));
                    }
                }
            }
            return copied;
        }

        private String sha256(String path) throws IOException {
            MessageDigest md;
            try {
                md = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
            byte[] buf = new byte[1 << 16];
            try (InputStream in = store.open(path)) {
                for (int r; (r = in.read(buf)) > 0; ) {
                    md.update(buf, 0, r);
                }
            }
            return java.util.HexFormat.of().formatHex(md.digest());
        }

        private List<Probe> probeAll(List<Candidate> chosen) throws IOException {
            if (chosen.size() <= 1) {
                List<Probe> out = new ArrayList<>();
                for (Candidate c : chosen) {
                    out.add(probe(c));
                }
                return out;
            }
            ExecutorService pool = Executors.newFixedThreadPool(Math.min(PROBE_THREADS, chosen.size()), r -> {
                Thread t = new Thread(r, "ackscope-archive-probe");
                t.setDaemon(true);
                return t;
            });
            try {
                List<Future<Probe>> futures = new ArrayList<>();
                for (Candidate c : chosen) {
                    futures.add(pool.submit(() -> probe(c)));
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
        private Probe probe(Candidate c) {
            if (c.entry().stream()) {
                // a FIFO or device (/dev/stdin) can be read once only: the read takes it whole, unprobed
                return new Probe(CaptureReader.NO_TIMESTAMP, null, null, Metadata.NONE, null);
            }
            String path = c.path();
            InputStream in;
            try {
                in = store.open(path);
            } catch (IOException e) {
                return new Probe(CaptureReader.NO_TIMESTAMP, null, null, Metadata.NONE, null);
            }
            try {
                Captures.Sniffed s = Captures.sniff(in, path, CaptureReader.DEFAULT_MAX_RECORD_LENGTH);
                if (s.reader() == null) {
                    in.close();
                    return new Probe(CaptureReader.NO_TIMESTAMP, null, null, Metadata.NONE, s.notCapture());
                }
                try (CaptureReader r = s.reader()) {
                    long first = CaptureReader.NO_TIMESTAMP;
                    try {
                        for (int i = 0; i < PROBE_RECORDS && r.next(); i++) {
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
                return new Probe(CaptureReader.NO_TIMESTAMP, null, null, Metadata.NONE, null);
            }
        }
    }

    /** What a file's {@link CaptureInfo} says about where it was written. */
    static Metadata metadata(CaptureInfo info) {
        if (info.format() != CaptureFormat.PCAPNG) {
            return Metadata.NONE;
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
        List<String> comments = info.comments().stream().map(Archive::bounded).toList();
        return s == null ? new Metadata(null, null, null, names, comments)
                : new Metadata(bounded(s.hardware()), bounded(s.os()), bounded(s.application()), names, comments);
    }

    private static String bounded(String s) {
        return s == null || s.length() <= MAX_TEXT ? s : s.substring(0, MAX_TEXT);
    }

    /**
     * The prefix of the hidden directories an analyze run stages its output in ({@code spark.OutputDirectory},
     * {@code output.OutputMarker}); defined here, the lowest package that needs it, since the listing skips them.
     */
    public static final String STAGING_PREFIX = "_ackscope_staging_";

    /** Files without a first timestamp sort after those with one. */
    private static long order(long firstNanos) {
        return firstNanos == CaptureReader.NO_TIMESTAMP ? Long.MAX_VALUE : firstNanos;
    }

    private static String trim(String path) {
        String p = path;
        while (p.length() > 1 && p.endsWith("/") && !p.endsWith("//")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }

    static String name(String path) {
        String p = trim(path);
        int i = p.lastIndexOf('/');
        return i < 0 ? p : p.substring(i + 1);
    }

    static String parent(String path) {
        String p = trim(path);
        int i = p.lastIndexOf('/');
        return i <= 0 ? (i == 0 ? "/" : ".") : p.substring(0, i);
    }

    private static int depth(String path) {
        int n = 0;
        for (int i = 0; i < path.length(); i++) {
            if (path.charAt(i) == '/') {
                n++;
            }
        }
        return n;
    }

    @Override
    public String toString() {
        return files.size() + " files in " + sources.size() + " sources" + (copies.isEmpty() ? ""
                : ", " + copies.size() + " copies") + (skipped.isEmpty() ? "" : ", " + skipped.size() + " skipped");
    }
}
