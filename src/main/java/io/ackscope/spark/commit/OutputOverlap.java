package io.ackscope.spark.commit;

import io.ackscope.spark.commit.OutputDirectory.Refused;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether an output directory and the inputs of a run overlap: an input inside {@code --out} would be replaced by
 * {@code --overwrite}, and an {@code --out} inside an input would be read as captures by the next run. Apart from
 * {@link OutputDirectory} because it is a question about paths (real paths on the local filesystem), not about the
 * commit.
 */
public final class OutputOverlap {
    private OutputOverlap() {
    }

    /**
     * Refuses an input inside {@code out}, and {@code out} equal to or inside an input: compared as real paths
     * (symbolic links resolved) on the local filesystem, as qualified paths on others. Globs are expanded (a
     * listing; no capture is opened).
     */
    static void refuse(List<String> inputs, String out, Configuration conf) throws IOException {
        Path outPath = new Path(out);
        FileSystem ofs = outPath.getFileSystem(conf);
        outPath = ofs.makeQualified(outPath);
        String outKey = key(ofs, outPath);
        for (String in : inputs) {
            Path p = new Path(in);
            FileSystem ifs = p.getFileSystem(conf);
            if (!ifs.getUri().equals(ofs.getUri())) {
                continue;
            }
            List<Path> paths = new ArrayList<>();
            FileStatus[] matched = ifs.globStatus(p);
            if (matched == null || matched.length == 0) {
                paths.add(ifs.makeQualified(p));
            } else {
                for (FileStatus s : matched) {
                    paths.add(s.getPath());
                }
            }
            for (Path q : paths) {
                String k = key(ifs, q);
                if (within(k, outKey)) {
                    throw new Refused("input " + in + (k.equals(outKey) ? " is" : " lies inside") + " the output "
                            + "directory --out " + out + ": choose an --out outside the inputs (--overwrite would "
                            + "otherwise replace what it reads, and a later run would read its own tables)", true);
                }
                if (within(outKey, k)) {
                    throw new Refused("--out " + out + " lies inside the input directory " + in + ": a later run "
                            + "would read its own tables as captures; choose an --out outside the inputs", true);
                }
            }
        }
    }

    /** A comparable name for {@code p}: its real path on the local filesystem, its qualified path elsewhere. */
    public static String key(FileSystem fs, Path p) throws IOException {
        if (!"file".equals(fs.getScheme())) {
            return p.toString();
        }
        java.nio.file.Path local = java.nio.file.Path.of(fs.makeQualified(p).toUri()).normalize();
        java.nio.file.Path existing = local;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return local.toString();
        }
        return existing.toRealPath().resolve(existing.relativize(local)).normalize().toString();
    }

    public static boolean within(String a, String b) {
        return a.equals(b) || a.startsWith(b.endsWith("/") ? b : b + "/");
    }
}
