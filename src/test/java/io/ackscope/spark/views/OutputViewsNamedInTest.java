package io.ackscope.spark.views;

import org.junit.jupiter.api.Test;

import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OutputViewsNamedInTest {

    @Test
    void aTableIsNamedAsAWordInAnyCase() {
        Predicate<String> named = OutputViews.namedIn(
                "SELECT c.uid FROM Connections c JOIN rtt_samples r USING (uid) WHERE r.stream IN "
                        + "(SELECT stream FROM STALLS)");
        assertTrue(named.test("connections"));
        assertTrue(named.test("rtt_samples"));
        assertTrue(named.test("stalls"));
        assertFalse(named.test("exchanges"));
    }

    @Test
    void aNameInsideALongerIdentifierDoesNotCount() {
        Predicate<String> named = OutputViews.namedIn("select * from source_pairs_copy, my_sources, sources2");
        assertFalse(named.test("source_pairs"));
        assertFalse(named.test("sources"));
        assertTrue(OutputViews.namedIn("select * from `sources`").test("sources"));
    }
}
