package io.ackscope.spark.source;

import io.ackscope.capture.ArchiveStore;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Hadoop filesystems as an {@link ArchiveStore}, with Hadoop path URIs as paths ({@code file:/...},
 * {@code hdfs://...}). Local files are listed through {@link ArchiveStore#local()}, so links are resolved to their
 * files by device and inode and loops are seen; on other filesystems a file's identity is its qualified path.
 */
public final class HadoopArchiveStore implements ArchiveStore {
    private static final ArchiveStore LOCAL = ArchiveStore.local();
    private final Configuration conf;

    public HadoopArchiveStore(Configuration conf) {
        this.conf = conf;
    }

    /** The inputs' globs expanded to qualified paths; a pattern that matches nothing is an error. */
    List<String> expand(List<String> inputs) throws IOException {
        List<String> out = new ArrayList<>();
        for (String in : inputs) {
            Path p = new Path(in);
            FileStatus[] matches = p.getFileSystem(conf).globStatus(p);
            if (matches == null || matches.length == 0) {
                throw new FileNotFoundException("no capture matches " + in);
            }
            for (FileStatus st : matches) {
                out.add(st.getPath().toString());
            }
        }
        return out;
    }

    /** The local path of a {@code file:} URI, or null on another filesystem. */
    private String local(Path p) throws IOException {
        FileSystem fs = p.getFileSystem(conf);
        return fs instanceof LocalFileSystem || fs instanceof RawLocalFileSystem ? p.toUri().getPath() : null;
    }

    @Override
    public Entry stat(String path) throws IOException {
        Path p = new Path(path);
        String local = local(p);
        if (local != null) {
            Entry e = LOCAL.stat(local);
            return e == null ? null : new Entry(path, e.directory(), e.length(), e.identity(), e.link(), e.stream());
        }
        FileSystem fs = p.getFileSystem(conf);
        FileStatus st;
        try {
            st = fs.getFileStatus(p);
        } catch (FileNotFoundException e) {
            return null;
        }
        return new Entry(path, st.isDirectory(), st.getLen(), fs.makeQualified(p).toString(), st.isSymlink());
    }

    @Override
    public List<String> children(String dir) throws IOException {
        Path p = new Path(dir);
        List<String> out = new ArrayList<>();
        if (local(p) != null) {
            for (String c : LOCAL.children(p.toUri().getPath())) {
                out.add(p + "/" + c.substring(c.lastIndexOf('/') + 1));
            }
            return out;
        }
        for (FileStatus st : p.getFileSystem(conf).listStatus(p)) {
            out.add(st.getPath().toString());
        }
        return out;
    }

    @Override
    public InputStream open(String path) throws IOException {
        Path p = new Path(path);
        String local = local(p);
        if (local != null) {
            // unbuffered: the capture readers buffer themselves, and Hadoop's local stream allocated its own
            // io.file.buffer.size buffer for each of an archive's files, most of which are read for 64 records
            return LOCAL.open(local);
        }
        return HadoopSeekableInput.captureFileSystem(p, conf).open(p);
    }
}
