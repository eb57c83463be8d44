package io.ackscope.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The heap running out is one line naming the heap and how to raise it, exit 1, however Spark wraps it. */
class OutOfMemoryTest {

    @Test
    void aTaskOutOfMemoryIsFoundInTheCauseChainOrTheText() {
        Exception wrapped = new RuntimeException("Job aborted", new IllegalStateException("task failed",
                new OutOfMemoryError("Java heap space")));
        assertTrue(OutOfMemory.causedBy(wrapped));
        assertTrue(OutOfMemory.causedBy(new RuntimeException("Job aborted due to stage failure: "
                + "java.lang.OutOfMemoryError: GC overhead limit exceeded")));
        assertFalse(OutOfMemory.causedBy(new java.io.IOException("disk full")));
    }

    @Test
    void theLineNamesTheHeapWhatFilledItAndHowToRaiseIt() {
        long mb = Runtime.getRuntime().maxMemory() >> 20;
        String line = OutOfMemory.line(new RuntimeException(new OutOfMemoryError("GC overhead limit exceeded")));
        assertTrue(line.startsWith(String.format(java.util.Locale.ROOT, "out of memory: the Java heap (-Xmx, %,d MB) "
                + "filled up (GC overhead limit exceeded)", mb)), line);
        assertTrue(line.contains("JAVA_OPTS=-Xmx" + Math.max(1024, 2 * mb) + "m"), line);
        assertTrue(line.contains("the output is as it was"), line);
        assertEquals(1, line.lines().count());
    }

    @Test
    void embeddedSparkFailsTheJobInsteadOfExitingFiftyTwo() throws Exception {
        var sc = LocalSpark.conf("t", null, List.of());
        assertEquals("0", sc.get("spark.executor.killOnFatalError.depth"));
    }
}
