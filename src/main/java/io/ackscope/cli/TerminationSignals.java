package io.ackscope.cli;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * Turns SIGINT and SIGTERM into a call of a stop action instead of JVM shutdown, so a long-running command
 * (a capture) can finish its work and exit 0 as tcpdump does.
 *
 * <p>Uses {@code sun.misc.Signal} from module {@code jdk.unsupported} (exported, but javac warns about it without a
 * way to suppress the warning, hence the reflection). Where it is missing the JVM's default handling stays, and
 * {@link #install} returns false.
 */
final class TerminationSignals {

    private TerminationSignals() {
    }

    /** Routes SIGINT and SIGTERM to {@code onSignal}; returns false if signals cannot be handled here. */
    static boolean install(Runnable onSignal) {
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            InvocationHandler ih = (Object proxy, Method m, Object[] args) -> {
                if (m.getName().equals("handle")) {
                    onSignal.run();
                    return null;
                }
                return switch (m.getName()) {
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> "TerminationSignals";
                };
            };
            Object handler = Proxy.newProxyInstance(handlerClass.getClassLoader(), new Class<?>[] {handlerClass}, ih);
            Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
            for (String name : new String[] {"INT", "TERM"}) {
                Object signal = signalClass.getConstructor(String.class).newInstance(name);
                handle.invoke(null, signal, handler);
            }
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }
}
