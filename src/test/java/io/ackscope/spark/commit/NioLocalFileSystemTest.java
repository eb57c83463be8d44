package io.ackscope.spark.commit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NioLocalFileSystemTest {

    @TempDir
    java.nio.file.Path tmp;

    private static FileSystem open() throws Exception {
        Configuration conf = new Configuration();
        conf.setBoolean("fs.file.impl.disable.cache", true);
        NioLocalFileSystem.use(conf);
        FileSystem fs = FileSystem.getLocal(conf);
        assertTrue(fs instanceof NioLocalFileSystem, fs.getClass().getName());
        return fs;
    }

    @Test
    void setsTheNineBitsHadoopAsksFor() throws Exception {
        try (FileSystem fs = open()) {
            Path dir = new Path(tmp.toUri().toString(), "d");
            assertTrue(fs.mkdirs(dir));
            fs.setPermission(dir, new FsPermission((short) 0750));
            assertEquals("rwxr-x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve("d"))));
            Path file = new Path(dir, "f");
            try (FSDataOutputStream out = fs.create(file, new FsPermission((short) 0640), false, 4096, (short) 1,
                    1 << 20, null)) {
                out.write(1);
            }
            assertEquals("rw-r-----",
                    PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve("d").resolve("f"))));
            // the checksum file of Hadoop's LocalFileSystem is still written beside it
            assertTrue(Files.exists(tmp.resolve("d").resolve(".f.crc")));
        }
    }

    @Test
    void leavesBitsBeyondRwxToHadoop() {
        assertNull(NioLocalFileSystem.posix(new FsPermission((short) 01777)));
        assertEquals("rwxr-xr-x", PosixFilePermissions.toString(NioLocalFileSystem.posix(new FsPermission((short) 0755))));
        assertEquals("-w---x-wx", PosixFilePermissions.toString(NioLocalFileSystem.posix(new FsPermission((short) 0213))));
    }

    @Test
    void keepsAConfiguredImplementation() {
        Configuration conf = new Configuration(false);
        conf.set(NioLocalFileSystem.KEY, "org.apache.hadoop.fs.LocalFileSystem");
        NioLocalFileSystem.use(conf);
        assertEquals("org.apache.hadoop.fs.LocalFileSystem", conf.get(NioLocalFileSystem.KEY));
    }
}
