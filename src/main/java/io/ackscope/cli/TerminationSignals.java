package io.ackscope.cli;

import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.IntConsumer;

/**
 * SIGINT and SIGTERM for the long-running commands, whatever disposition the launcher left them in.
 *
 * <p>A shell without job control (a script, {@code cmd &}, {@code nohup cmd &} in one) starts background commands
 * with SIGINT ignored, and an ignored signal stays ignored across exec. The JVM then installs no SIGINT handler of
 * its own (so a shutdown hook never runs on SIGINT), and {@code sun.misc.Signal.handle} installs nothing either: it
 * returns {@code SIG_IGN} and leaves the signal ignored. tcpdump sets its handlers with sigaction regardless, so it
 * stops on SIGINT however it was started; these commands do the same: a signal found ignored is reset to its default
 * action (libc {@code signal(sig, SIG_DFL)} through JNA, which pcap4j already brings) and then handled.
 *
 * <p>Uses {@code sun.misc.Signal} from module {@code jdk.unsupported} (exported, but javac warns about it without a
 * way to suppress the warning, hence the reflection). Where it is missing the JVM's default handling stays.
 */
final class TerminationSignals {

    private static final String[] NAMES = {"INT", "TERM"};
    /**
     * What the shutdown hooks get after a signal when no command waits in them ({@link StopOnSignal} does): Spark's
     * stop and the removal of its scratch directories, about a second on a healthy heap.
     */
    static final long SIGNAL_GRACE_MILLIS = 5_000;

    /** The libc call that resets an ignored signal, bound through JNA. */
    private static final class LibC {
        static {
            Native.register("c");
        }

        /** {@code signal(2)}; a null handler is {@code SIG_DFL}. */
        static native Pointer signal(int signum, Pointer handler);
    }

    private TerminationSignals() {
    }

    /**
     * Routes SIGINT and SIGTERM to {@code onSignal} instead of JVM shutdown, so a command (a capture) can finish its
     * work and exit 0 as tcpdump does; returns false if signals cannot be handled here.
     */
    static boolean install(Runnable onSignal) {
        return route(number -> onSignal.run());
    }

    /**
     * Makes SIGINT and SIGTERM run the shutdown hooks and exit with 128 + the signal's number, which is what the JVM
     * does by itself unless the launcher left the signal ignored, and halt {@link BoundedExit#GRACE_SECONDS} later if
     * the hooks have not finished; returns false if signals cannot be handled here.
     */
    static boolean exitOnSignal() {
        return route(number -> BoundedExit.exit(128 + number), true);
    }

    /**
     * As {@link #exitOnSignal}, the hooks given {@link #SIGNAL_GRACE_MILLIS}, for every command; a signal the
     * launcher left ignored stays ignored.
     */
    static boolean exitOnSignalUnlessIgnored() {
        return route(number -> BoundedExit.exit(128 + number, SIGNAL_GRACE_MILLIS), false);
    }

    private static boolean route(IntConsumer action) {
        return route(action, true);
    }

    private static boolean route(IntConsumer action, boolean resetIgnored) {
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            Method number = signalClass.getMethod("getNumber");
            Object ignored = handlerClass.getField("SIG_IGN").get(null);
            Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
            for (String name : NAMES) {
                Object signal = signalClass.getConstructor(String.class).newInstance(name);
                int n = (Integer) number.invoke(signal);
                Object handler = handler(handlerClass, action, n);
                if (handle.invoke(null, signal, handler) == ignored && resetIgnored) {
                    // ignored since exec: Signal.handle changed nothing; reset it, then it installs
                    LibC.signal(n, null);
                    handle.invoke(null, signal, handler);
                }
            }
            return true;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return false;
        }
    }

    /**
     * A {@code SignalHandler} for signal {@code n} that calls {@code action} with it, the number known beforehand:
     * a handler runs with the heap possibly full, so it reflects on nothing.
     */
    private static Object handler(Class<?> handlerClass, IntConsumer action, int n) {
        InvocationHandler ih = (Object proxy, Method m, Object[] args) -> {
            if (m.getName().equals("handle")) {
                action.accept(n);
                return null;
            }
            return switch (m.getName()) {
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                default -> "TerminationSignals";
            };
        };
        return Proxy.newProxyInstance(handlerClass.getClassLoader(), new Class<?>[] {handlerClass}, ih);
    }
}
