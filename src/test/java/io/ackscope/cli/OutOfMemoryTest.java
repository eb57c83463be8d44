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
        long mb = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-Xmx")).findFirst().map(OutOfMemoryTest::megabytes)
                .orElse(OutOfMemory.maxHeapBytes() >> 20);
        assertEquals(mb, OutOfMemory.maxHeapBytes() >> 20, "the -Xmx given, not Runtime.maxMemory()");
        String line = OutOfMemory.line(new RuntimeException(new OutOfMemoryError("GC overhead limit exceeded")));
        // an earlier run in this JVM may have noted what it held: the line then says so before "; it holds"
        String holding = io.ackscope.spark.HeapUse.holding();
        assertTrue(line.startsWith(String.format(java.util.Locale.ROOT, "out of memory: the Java heap (-Xmx, %,d MB) "
                + "filled up (GC overhead limit exceeded)%s; it holds", mb,
                holding == null ? "" : " holding " + holding)), line);
        assertTrue(line.contains("JAVA_OPTS=-Xmx" + OutOfMemory.suggested(mb, io.ackscope.spark.HeapUse.carried())
                + " jobs/ackscope"), line);
        assertTrue(line.contains("the output is as it was"), line);
        assertEquals(1, line.lines().count());
    }

    @Test
    void theSuggestedHeapDoublesAndCoversTheCarriedConnections() {
        assertEquals("1g", OutOfMemory.suggested(256, 0));
        assertEquals("1g", OutOfMemory.suggested(512, 0));
        assertEquals("2g", OutOfMemory.suggested(1024, 0));
        assertEquals("6g", OutOfMemory.suggested(3000, 0));
        // 1,000,000 carried connections: a 3 GB heap finished the run, 1 GB spun (jobs/lab-memory)
        assertEquals("4g", OutOfMemory.suggested(512, 1_000_000));
        assertEquals("4g", OutOfMemory.suggested(1024, 1_000_000));
        assertEquals("2g", OutOfMemory.suggested(512, 100_000));
    }

    private static long megabytes(String xmx) {
        String v = xmx.substring(4).toLowerCase(java.util.Locale.ROOT);
        long n = Long.parseLong(v.replaceAll("[kmgt]$", ""));
        return switch (v.charAt(v.length() - 1)) {
            case 'k' -> n >> 10;
            case 'm' -> n;
            case 'g' -> n << 10;
            case 't' -> n << 20;
            default -> n >> 20;
        };
    }

    @Test
    void embeddedSparkFailsTheJobInsteadOfExitingFiftyTwo() throws Exception {
        var sc = LocalSpark.conf("t", null, List.of());
        assertEquals("0", sc.get("spark.executor.killOnFatalError.depth"));
    }
}
