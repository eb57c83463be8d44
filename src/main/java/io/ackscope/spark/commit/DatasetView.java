package io.ackscope.spark.commit;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A staged output seen whole before its commit: for the report of a run that adds files to an earlier output
 * (it stages only its new files; the report is made from every row and committed with them).
 */
public final class DatasetView {
    private DatasetView() {
    }

    /**
     * The dataset as it will read once committed with {@code retire} retired, as a local directory of symbolic links
     * ({@code staging/.view}: hidden, never committed): the earlier output's files that stay and the staged ones,
     * and the staged marker with a manifest of exactly those files (no report: one written into the view is a new
     * file). For what reads a whole output before the commit (the report of a run that adds to an
     * earlier output and stages only its new files). Null when the output is not on the local filesystem.
     */
    public static java.nio.file.Path of(OutputDirectory out, Collection<String> retire) throws IOException {
        if (!"file".equals(out.fs().getUri().getScheme())) {
            return null;
        }
        java.nio.file.Path root = java.nio.file.Path.of(out.dir().toUri()),
                stagingRoot = java.nio.file.Path.of(out.staging().toUri());
        java.nio.file.Path view = stagingRoot.resolve(".view");
        Set<String> kept = new TreeSet<>(out.previousFiles());
        kept.removeAll(retire);
        List<String> added = out.stagedFiles();
        kept.removeAll(added);
        List<String> files = new java.util.ArrayList<>();
        for (String f : kept) {
            if (inTable(f)) {
                link(view.resolve(f), root.resolve(f));
                files.add(f);
            }
        }
        for (String f : added) {
            if (inTable(f)) {
                link(view.resolve(f), stagingRoot.resolve(f));
                files.add(f);
            }
        }
        // the staged marker with the view's own manifest: readers read the files a manifest lists, and the staged
        // one lists what this run staged
        String staged = java.nio.file.Files.readString(stagingRoot.resolve(OutputDirectory.SUCCESS));
        java.nio.file.Files.writeString(view.resolve(OutputDirectory.SUCCESS),
                io.ackscope.output.OutputMarker.withFiles(staged, files));
        return view;
    }

    /** A file in a table's directory (not the report, the marker or the hidden state). */
    private static boolean inTable(String f) {
        return f.indexOf('/') > 0 && !f.startsWith("_") && !f.startsWith(".");
    }

    private static void link(java.nio.file.Path link, java.nio.file.Path target) throws IOException {
        java.nio.file.Files.createDirectories(link.getParent());
        java.nio.file.Files.createSymbolicLink(link, target);
    }
}
