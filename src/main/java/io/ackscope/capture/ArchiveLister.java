package io.ackscope.capture;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
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

/**
 * How {@link Archive#list} walks its inputs: each file once by identity (the preferred path wins), sources by the
 * rule, ackscope outputs and link loops skipped; then, with each file's first records read
 * ({@link FirstRecords}), the files that are not captures set aside, each source put in time order and its exact
 * copies found. One lister per listing; not thread-safe.
 */
final class ArchiveLister {
    private final ArchiveStore store;
    private final Archive.SourceRule rule;
    private final Set<Object> excluded = new HashSet<>();
    private final Map<Object, Candidate> files = new HashMap<>();
    private final Map<String, String> skipped = new TreeMap<>();
    private int directories;

    private ArchiveLister(ArchiveStore store, Archive.SourceRule rule) {
        this.store = store;
        this.rule = rule;
    }

    /** Lists {@code inputs} (see {@link Archive#list(Collection, ArchiveStore, Archive.SourceRule, Collection)}). */
    static Archive list(Collection<String> inputs, ArchiveStore store, Archive.SourceRule rule,
                        Collection<String> excluded) throws IOException {
        ArchiveLister l = new ArchiveLister(store, rule);
        for (String x : excluded) {
            ArchiveStore.Entry e = store.stat(Archive.trim(x));
            if (e != null) {
                l.excluded.add(e.identity());
            }
        }
        for (String in : new TreeSet<>(inputs)) {
            String root = Archive.trim(in);
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

    private void offer(Candidate c) {
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

    private void walk(String dir, ArchiveStore.Entry entry, String root, List<Object> ancestors, boolean viaLink)
            throws IOException {
        if (excluded.contains(entry.identity())) {
            skipped.put(dir, "the output directory");
            return;
        }
        if (++directories > Archive.MAX_DIRECTORIES) {
            throw new IOException("more than " + Archive.MAX_DIRECTORIES + " directories under the inputs (links?)");
        }
        List<String> children = new ArrayList<>(store.children(dir));
        children.sort(null);
        for (String child : children) {
            String n = Archive.name(child);
            if (n.equals("_SUCCESS") && ackscopeMarker(child) || n.startsWith(Archive.STAGING_PREFIX)) {
                skipped.put(dir, "an ackscope output (" + n + ")");
                return;
            }
        }
        for (String child : children) {
            String n = Archive.name(child);
            if (Archive.hidden(n)) {
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
            p = Archive.parent(p);
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

    private Archive finish() throws IOException {
        List<Candidate> chosen = new ArrayList<>(files.values());
        chosen.sort(Comparator.comparing(Candidate::path));
        List<FirstRecords.Probe> probes = FirstRecords.probeAll(store, chosen);
        Map<String, List<Integer>> bySource = new TreeMap<>();
        for (int i = 0; i < chosen.size(); i++) {
            Candidate c = chosen.get(i);
            FirstRecords.Probe p = probes.get(i);
            if (p.notCapture() != null && !c.named()) {
                skipped.put(c.path(), "not a capture: " + p.notCapture());
                continue;
            }
            bySource.computeIfAbsent(c.source(), k -> new ArrayList<>()).add(i);
        }
        List<String> sources = new ArrayList<>(bySource.keySet());
        List<Archive.Member> members = new ArrayList<>();
        List<Archive.Copy> copies = new ArrayList<>();
        for (int s = 0; s < sources.size(); s++) {
            List<Integer> own = bySource.get(sources.get(s));
            own.sort(Comparator.comparingLong((Integer i) -> order(probes.get(i).firstNanos()))
                    .thenComparing(i -> Archive.name(chosen.get(i).path())).thenComparing(i -> chosen.get(i).path()));
            Set<Integer> copied = copies(own, chosen, probes, s, copies);
            for (int i : own) {
                if (copied.contains(i)) {
                    continue;
                }
                Candidate c = chosen.get(i);
                FirstRecords.Probe p = probes.get(i);
                members.add(new Archive.Member(members.size(), c.path(), s, c.entry().length(), p.firstNanos(),
                        p.format(), p.compression(), p.metadata()));
            }
        }
        List<Archive.Skipped> skips = new ArrayList<>();
        skipped.forEach((p, why) -> skips.add(new Archive.Skipped(p, why)));
        return new Archive(sources, members, copies, skips);
    }

    /**
     * Finds the files of one source that are copies of an earlier one (same length and first timestamp, then
     * the same SHA-256), adds them to {@code out} and returns their candidate indexes.
     */
    private Set<Integer> copies(List<Integer> own, List<Candidate> chosen, List<FirstRecords.Probe> probes, int source,
                                List<Archive.Copy> out) throws IOException {
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
                    out.add(new Archive.Copy(chosen.get(i).path(), source, chosen.get(original).path()));
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

    /** A path to a file and the source it would give. */
    record Candidate(String path, String source, ArchiveStore.Entry entry, boolean named, boolean viaLink) {
        /** Paths through fewer links, then shorter, then by name, then by source win. */
        static final Comparator<Candidate> PREFERRED = Comparator.comparing(Candidate::viaLink)
                .thenComparingInt(c -> depth(c.path)).thenComparing(Candidate::path).thenComparing(Candidate::source);
    }

    /** Files without a first timestamp sort after those with one. */
    private static long order(long firstNanos) {
        return firstNanos == CaptureReader.NO_TIMESTAMP ? Long.MAX_VALUE : firstNanos;
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
}
