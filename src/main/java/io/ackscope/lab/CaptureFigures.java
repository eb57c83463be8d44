package io.ackscope.lab;

import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code ackscope capture} reported for one configuration, and the size of the compressed file the lab kept.
 *
 * @param captured        packets written to the capture
 * @param droppedByKernel packets the kernel dropped before the capture saw them
 * @param fileBytes       size of the gzip file
 */
public record CaptureFigures(long captured, long droppedByKernel, long fileBytes) {

    private static final Pattern CAPTURED = Pattern.compile("(?m)^(\\d+) packets? captured$");
    private static final Pattern DROPPED = Pattern.compile("(?m)^(\\d+) packets? dropped by kernel$");

    /** Reads the counts that {@code capture} prints when it stops. */
    static CaptureFigures parse(String output, long fileBytes) throws IOException {
        return new CaptureFigures(count(CAPTURED, output), count(DROPPED, output), fileBytes);
    }

    private static long count(Pattern p, String output) throws IOException {
        Matcher m = p.matcher(output);
        if (!m.find()) {
            throw new IOException("ackscope capture printed no line matching " + p.pattern());
        }
        return Long.parseLong(m.group(1));
    }
}
