import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Rewrites each signed jar named on the command line without its signature files ({@code META-INF/*.SF}, {@code
 * .RSA}, {@code .DSA}, {@code .EC}, {@code SIG-*}); every other entry is copied as it is, and an unsigned jar is left
 * alone. For jobs/cds-archive: the JVM does not put classes of a signed jar into a class-data-sharing archive, and
 * verifies every class it loads from one, so Spark's code generator (janino, commons-compiler: signed) was loaded
 * from its jars at every start of `ackscope sql`. Run with the JDK's source launcher: java UnsignJars.java JAR...
 */
public final class UnsignJars {
    private static final Pattern SIGNATURE = Pattern.compile("META-INF/(?:[^/]+\\.(?:SF|RSA|DSA|EC)|SIG-[^/]+)",
            Pattern.CASE_INSENSITIVE);

    public static void main(String[] args) throws IOException {
        for (String a : args) {
            Path jar = Path.of(a);
            if (unsign(jar)) {
                System.out.println("cds-archive: removed the signature of " + jar.getFileName());
            }
        }
    }

    /** Replaces {@code jar} by a copy without its signature files; false (and nothing written) when it has none. */
    static boolean unsign(Path jar) throws IOException {
        try (ZipFile in = new ZipFile(jar.toFile())) {
            if (in.stream().noneMatch(e -> SIGNATURE.matcher(e.getName()).matches())) {
                return false;
            }
            Path tmp = Files.createTempFile(jar.getParent(), jar.getFileName().toString(), ".tmp");
            try {
                try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(tmp))) {
                    for (Enumeration<? extends ZipEntry> en = in.entries(); en.hasMoreElements(); ) {
                        ZipEntry e = en.nextElement();
                        if (SIGNATURE.matcher(e.getName()).matches()) {
                            continue;
                        }
                        ZipEntry copy = new ZipEntry(e.getName());
                        copy.setTime(e.getTime());
                        out.putNextEntry(copy);
                        try (InputStream data = in.getInputStream(e)) {
                            data.transferTo(out);
                        }
                        out.closeEntry();
                    }
                }
                Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
            return true;
        }
    }
}
