package io.ackscope.tcp;

import org.junit.jupiter.api.Test;

import java.lang.invoke.CallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.lang.runtime.ObjectMethods;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The records whose {@code equals} and {@code hashCode} are written out by hand (map keys on the engine's per-event
 * path) give exactly what the JDK would generate for them: {@link ObjectMethods#bootstrap}, the method the compiler
 * links a record's own methods to, is called here on the same components and compared on random values, equal pairs
 * and pairs that differ in one component. Equal hashes keep every hash map's iteration order as it was.
 */
class RecordMethodsTest {

    @Test
    void connectionIdMethodsAreTheGeneratedOnes() throws Throwable {
        String[] ips = {"10.0.0.1", "10.0.0.2", "2001:db8::1", "192.168.1.20", null};
        check(ConnectionId.class, r -> new ConnectionId(r.nextInt(3) == 0 ? r.nextLong() : r.nextInt(5),
                r.nextInt(3), r.nextInt(4) == 0 ? r.nextLong() : r.nextInt(6), r.nextInt(3) == 0 ? r.nextLong()
                : r.nextInt(2), copy(ips[r.nextInt(ips.length)]), r.nextInt(3), copy(ips[r.nextInt(ips.length)]),
                r.nextInt(3)));
    }

    @Test
    void roleEvidenceEndpointMethodsAreTheGeneratedOnes() throws Throwable {
        Class<?> endpoint = Class.forName(RoleEvidence.class.getName() + "$Endpoint");
        var make = endpoint.getDeclaredConstructor(long.class, long.class, int.class);
        make.setAccessible(true);
        check(endpoint, r -> {
            try {
                return make.newInstance(r.nextInt(3) == 0 ? r.nextLong() : r.nextInt(3),
                        r.nextInt(3) == 0 ? r.nextLong() : r.nextInt(3), r.nextInt(3) == 0 ? r.nextInt() : r.nextInt(3));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** A string equal to {@code s} but not the same instance (null stays null). */
    private static String copy(String s) {
        return s == null ? null : new String(s.toCharArray());
    }

    private interface Maker {
        Object make(Random r);
    }

    private static void check(Class<?> type, Maker values) throws Throwable {
        MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
        List<MethodHandle> getters = new ArrayList<>();
        StringBuilder names = new StringBuilder();
        for (RecordComponent c : type.getRecordComponents()) {
            getters.add(lookup.findGetter(type, c.getName(), c.getType()));
            names.append(names.length() == 0 ? "" : ";").append(c.getName());
        }
        MethodHandle[] g = getters.toArray(new MethodHandle[0]);
        MethodHandle hash = ((CallSite) ObjectMethods.bootstrap(lookup, "hashCode",
                MethodType.methodType(int.class, type), type, names.toString(), g)).dynamicInvoker();
        MethodHandle equal = ((CallSite) ObjectMethods.bootstrap(lookup, "equals",
                MethodType.methodType(boolean.class, type, Object.class), type, names.toString(), g)).dynamicInvoker();
        int equalPairs = 0;
        int unequalPairs = 0;
        Random r = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            long seed = r.nextLong();
            Object a = values.make(new Random(seed));
            // every other pair: an equal value built again from the same draws (another instance)
            Object b = values.make(i % 2 == 0 ? new Random(seed) : r);
            if (i % 2 == 0) {
                assertEquals(true, a != b && a.equals(b), a::toString);
            }
            assertEquals((int) hash.invoke(a), a.hashCode(), a::toString);
            boolean same = (boolean) equal.invoke(a, b);
            assertEquals(same, a.equals(b), () -> a + " vs " + b);
            assertEquals(same, b.equals(a), () -> b + " vs " + a);
            if (same) {
                equalPairs++;
                assertEquals(a.hashCode(), b.hashCode());
            } else {
                unequalPairs++;
            }
            assertEquals(false, a.equals(null));
            assertEquals(false, a.equals("x"));
        }
        // values drawn from small sets: pairs that differ in one component or a few occur often
        assertNotEquals(0, equalPairs);
        assertNotEquals(0, unequalPairs);
    }
}
