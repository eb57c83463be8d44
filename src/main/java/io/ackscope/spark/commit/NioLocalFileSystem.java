package io.ackscope.spark.commit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/**
 * Hadoop's {@code file:} file system (checksummed, as {@link LocalFileSystem}) that sets permissions through
 * {@code java.nio} rather than by running a {@code chmod} process. Without Hadoop's native library (which this
 * project does not ship), {@link RawLocalFileSystem#setPermission} runs {@code chmod} for every directory and file
 * it creates with a permission: about 200 forks of the JVM per {@code analyze} run, each a few milliseconds of
 * system time. The permissions set are the same; a permission {@code java.nio} cannot express (sticky, setuid or
 * setgid bit), or a file system without POSIX attributes, falls back to Hadoop's own way.
 *
 * <p>Chosen with {@code fs.file.impl} (see {@link #use}); other schemes are untouched.
 */
public final class NioLocalFileSystem extends LocalFileSystem {

    /** The Hadoop key that names the implementation of {@code file:}. */
    public static final String KEY = "fs.file.impl";

    public NioLocalFileSystem() {
        super(new Raw());
    }

    /**
     * Makes {@code conf} (a Spark configuration's {@code spark.hadoop.} prefix is the caller's) choose this class
     * for {@code file:} unless it already names one.
     */
    public static void use(Configuration conf) {
        if (conf.get(KEY) == null) {
            conf.set(KEY, NioLocalFileSystem.class.getName());
        }
    }

    /** The raw local file system with {@link #setPermission} through {@code java.nio}. */
    static final class Raw extends RawLocalFileSystem {

        @Override
        public void setPermission(Path p, FsPermission permission) throws IOException {
            Set<PosixFilePermission> perms = posix(permission);
            java.nio.file.Path file = pathToFile(p).toPath();
            if (perms == null || Files.getFileAttributeView(file,
                    java.nio.file.attribute.PosixFileAttributeView.class) == null) {
                super.setPermission(p, permission);
                return;
            }
            Files.setPosixFilePermissions(file, perms);
        }
    }

    /** The nine rwx bits of {@code permission}, or null when it has a bit beyond them. */
    static Set<PosixFilePermission> posix(FsPermission permission) {
        int bits = permission.toShort();
        if ((bits & ~0777) != 0) {
            return null;
        }
        Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
        // PosixFilePermission's constants run OWNER_READ ... OTHERS_EXECUTE, the bits 0400 ... 0001 in that order
        PosixFilePermission[] all = PosixFilePermission.values();
        for (int i = 0; i < 9; i++) {
            if ((bits & (0400 >> i)) != 0) {
                out.add(all[i]);
            }
        }
        return out;
    }
}
