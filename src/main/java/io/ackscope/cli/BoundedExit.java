package io.ackscope.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ends the JVM with a status even when its shutdown hooks cannot finish: {@link #exit} runs them
 * ({@code System.exit}), and a thread started beforehand halts the JVM with the same status {@link #GRACE_SECONDS}
 * later if they have not. A heap that is full stops Spark's hooks (stopping the context allocates) and could stop
 * the JVM's exit for as long as the collector spins; the halting thread allocates nothing once started, so it works
 * then too. A halt is no worse for an output than a SIGKILL: every output is committed all or nothing, and the next
 * run clears what a stopped one left.
 */
final class BoundedExit {
    /** Longest the shutdown hooks get: above {@link StopOnSignal#GRACE_SECONDS}, which a command's hook waits. */
    static final long GRACE_SECONDS = StopOnSignal.GRACE_SECONDS + 5;

    private static final CountDownLatch EXITING = new CountDownLatch(1);
    private static volatile int status;
    private static volatile long graceMillis;
    private static volatile boolean started;

    private BoundedExit() {
    }

    /** Whether the JVM is on its way out ({@link #exit} was called): what fails after that is not news. */
    static boolean exiting() {
        return EXITING.getCount() == 0;
    }

    /** Starts the halting thread (once); call early, while the heap has room. */
    static synchronized void prepare() {
        if (started) {
            return;
        }
        Thread halter = new Thread(() -> {
            try {
                EXITING.await();
                Thread.sleep(graceMillis);
            } catch (InterruptedException e) {
                return;
            }
            Runtime.getRuntime().halt(status);
        }, "ackscope-bounded-exit");
        halter.setDaemon(true);
        halter.start();
        started = true;
    }

    /** Exits with {@code code}: the shutdown hooks run, for at most {@link #GRACE_SECONDS} once {@link #prepare}d. */
    static void exit(int code) {
        exit(code, TimeUnit.SECONDS.toMillis(GRACE_SECONDS));
    }

    /**
     * Exits with {@code code}, the shutdown hooks given at most {@code grace} milliseconds; once an exit has begun,
     * its status and bound stand and this only waits for it.
     */
    static void exit(int code, long grace) {
        synchronized (EXITING) {
            if (EXITING.getCount() > 0) { // the first exit decides: a run failing under a signal's exit returns 1
                status = code;
                graceMillis = grace;
                EXITING.countDown(); // before anything that allocates, and may wait for room
            }
        }
        System.exit(code);
    }
}
