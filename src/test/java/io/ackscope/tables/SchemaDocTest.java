package io.ackscope.tables;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/schema.md is the golden rendering of the table definitions. After changing a table, regenerate it with
 * {@code ACKSCOPE_UPDATE_GOLDEN=1 mvn -B test -Dtest=SchemaDocTest} and review the diff.
 */
class SchemaDocTest {
    static final Path DOC = Path.of("docs", "schema.md");

    @Test
    void docsSchemaMdMatchesTheTableDefinitions() throws IOException {
        String generated = SchemaDoc.markdown();
        if ("1".equals(System.getenv("ACKSCOPE_UPDATE_GOLDEN"))) {
            Files.createDirectories(DOC.getParent());
            Files.writeString(DOC, generated, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(DOC), "missing " + DOC + "; run with ACKSCOPE_UPDATE_GOLDEN=1");
        assertEquals(Files.readString(DOC, StandardCharsets.UTF_8), generated,
                "docs/schema.md is stale; regenerate with ACKSCOPE_UPDATE_GOLDEN=1 and review the diff");
    }

    @Test
    void everyColumnIsDocumentedAndDurationsCarryTheirUnit() {
        for (TableSchema t : SchemaDoc.tables()) {
            Set<String> names = new HashSet<>();
            for (Column c : t.columns()) {
                assertTrue(names.add(c.name()), t.name() + "." + c.name() + " twice");
                assertTrue(c.name().matches("[a-z][a-z0-9_]*"), c.name());
                assertTrue(c.doc().length() > 5, t.name() + "." + c.name() + " undocumented");
                if (c.unit().equals("µs")) {
                    assertTrue(c.name().endsWith("_us"), t.name() + "." + c.name() + " is in µs: name it *_us");
                }
                if (c.name().endsWith("_us")) {
                    assertEquals("µs", c.unit(), t.name() + "." + c.name());
                }
            }
        }
    }
}
