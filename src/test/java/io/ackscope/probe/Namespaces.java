package io.ackscope.probe;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Network namespaces a test creates for itself, named with a prefix and the JVM's pid so that parallel runs do not
 * collide, and deleted (with their veth pairs) by {@link #close()}.
 */
public final class Namespaces implements AutoCloseable {

    private final String prefix;
    private final List<String> created = new ArrayList<>();

    public Namespaces(String prefix) {
        this.prefix = prefix + ProcessHandle.current().pid();
    }

    /** Full name of namespace {@code shortName}. */
    public String name(String shortName) {
        return prefix + "-" + shortName;
    }

    /** Creates namespace {@code shortName} with its loopback up. */
    public String add(String shortName) throws IOException, InterruptedException {
        String ns = name(shortName);
        ip("netns", "add", ns);
        created.add(ns);
        in(shortName, "ip", "link", "set", "lo", "up");
        return ns;
    }

    /** Runs {@code ip ARGS} in the root namespace, failing the test on error. */
    public static void ip(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add("ip");
        cmd.addAll(List.of(args));
        NetTestSupport.check(20, cmd);
    }

    /** Runs {@code cmd} inside namespace {@code shortName}, failing the test on error. */
    public String in(String shortName, String... cmd) throws IOException, InterruptedException {
        return NetTestSupport.check(20, exec(shortName, cmd));
    }

    /** {@code ip netns exec NS cmd...} as a command line. */
    public List<String> exec(String shortName, String... cmd) {
        List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", name(shortName)));
        c.addAll(List.of(cmd));
        return c;
    }

    /** A veth pair with end {@code ifA} (address {@code cidrA}) in {@code a} and {@code ifB} in {@code b}, both up. */
    public void link(String a, String ifA, String cidrA, String b, String ifB, String cidrB)
            throws IOException, InterruptedException {
        ip("-n", name(a), "link", "add", ifA, "type", "veth", "peer", "name", ifB, "netns", name(b));
        in(a, "ip", "addr", "add", cidrA, "dev", ifA);
        in(a, "ip", "link", "set", ifA, "up");
        in(b, "ip", "addr", "add", cidrB, "dev", ifB);
        in(b, "ip", "link", "set", ifB, "up");
    }

    /** Deletes every namespace created, continuing past failures. */
    @Override
    public void close() {
        for (int i = created.size() - 1; i >= 0; i--) {
            try {
                NetTestSupport.run(20, List.of("ip", "netns", "del", created.get(i)));
            } catch (IOException | InterruptedException | AssertionError e) {
                // keep deleting the others
            }
        }
        created.clear();
    }
}
