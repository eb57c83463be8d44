package io.ackscope.capture;

import java.io.IOException;
import java.io.Serializable;
import java.util.Collection;
import java.util.List;
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

    Archive(List<String> sources, List<Member> files, List<Copy> copies, List<Skipped> skipped) {
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

    /**
     * This listing without the files {@code left} (paths as listed), for a run that holds them back: the other
     * files keep their order and are numbered again, a source left without files goes, and so do its copies.
     */
    public Archive without(Collection<String> left) {
        java.util.Set<String> out = new java.util.HashSet<>(left);
        List<String> names = new java.util.ArrayList<>();
        int[] newSource = new int[sources.size()];
        java.util.Arrays.fill(newSource, -1);
        List<Member> kept = new java.util.ArrayList<>();
        for (Member m : files) {
            if (out.contains(m.path())) {
                continue;
            }
            if (newSource[m.source()] < 0) {
                newSource[m.source()] = names.size();
                names.add(sources.get(m.source()));
            }
            kept.add(new Member(kept.size(), m.path(), newSource[m.source()], m.length(), m.firstNanos(), m.format(),
                    m.compression(), m.metadata()));
        }
        List<Copy> keptCopies = new java.util.ArrayList<>();
        for (Copy c : copies) {
            if (newSource[c.source()] >= 0) {
                keptCopies.add(new Copy(c.path(), newSource[c.source()], c.of()));
            }
        }
        return new Archive(names, kept, keptCopies, skipped);
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
        return ArchiveLister.list(inputs, store, rule, excluded);
    }

    /**
     * The prefix of the hidden directories an analyze run stages its output in ({@code spark.OutputDirectory},
     * {@code output.OutputMarker}); defined here, the lowest package that needs it, since the listing skips them.
     */
    public static final String STAGING_PREFIX = "_ackscope_staging_";

    /**
     * Whether a file or directory named {@code name} is left out of the listing of captures: names starting with
     * {@code .} (a file being written under a temporary name) or {@code _} (ackscope's own state, Spark's markers).
     */
    public static boolean hidden(String name) {
        return name.startsWith(".") || name.startsWith("_");
    }

    static String trim(String path) {
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

    @Override
    public String toString() {
        return files.size() + " files in " + sources.size() + " sources" + (copies.isEmpty() ? ""
                : ", " + copies.size() + " copies") + (skipped.isEmpty() ? "" : ", " + skipped.size() + " skipped");
    }
}
