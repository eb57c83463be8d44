package io.ackscope.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Lets a long-running command stop cleanly on SIGINT or SIGTERM: a shutdown hook runs {@code stop}, then holds the
 * JVM's exit until the command has finished (printed its summary, closed its files) or {@link #GRACE_SECONDS}
 * passed. Close it when the command is done, signal or not. The signals end the JVM (status 128 + signal) even when
 * the launcher left them ignored ({@link TerminationSignals#exitOnSignal}).
 */
final class StopOnSignal implements AutoCloseable {

    /** Longest the JVM exit waits for the command after a signal. */
    static final long GRACE_SECONDS = 10;

    private final Thread hook;
    private final CountDownLatch finished = new CountDownLatch(1);

    StopOnSignal(Runnable stop) {
        this.hook = new Thread(() -> {
            stop.run();
            try {
                finished.await(GRACE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "ackscope-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        TerminationSignals.exitOnSignal();
    }

    @Override
    public void close() {
        finished.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // a signal already started the shutdown: the hook is running and has just been released
        }
    }
}
