package io.ackscope.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ackscope.json.JsonWriter.Layout;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonWriterTest {

    private final StringBuilder sb = new StringBuilder();
    private final JsonWriter w = new JsonWriter(sb);

    @Test
    void compactHasNoSpaces() {
        w.beginObject(Layout.COMPACT).name("a").value(1).name("b").beginArray(Layout.COMPACT).value(true).value("x")
                .nullValue().end().name("c").beginObject(Layout.COMPACT).end().end();
        assertEquals("{\"a\":1,\"b\":[true,\"x\",null],\"c\":{}}", sb.toString());
    }

    @Test
    void blocksIndentTwoSpacesPerLevelAndLinesStayOnOneLine() {
        w.beginObject(Layout.BLOCK).name("rows").beginArray(Layout.BLOCK);
        w.beginObject(Layout.LINE).name("n").value(1).name("s").value("a").end();
        w.beginObject(Layout.BLOCK).name("v").beginArray(Layout.COMPACT).value(1).value(2).end().end();
        w.end().name("empty").beginArray(Layout.BLOCK).end().end();
        assertEquals("""
                {
                  "rows": [
                    {"n": 1, "s": "a"},
                    {
                      "v": [1,2]
                    }
                  ],
                  "empty": []
                }""", sb.toString());
    }

    @Test
    void doublesHaveTheirDecimalsAndNonFiniteIsNull() {
        w.beginArray(Layout.COMPACT).value(0.1234567, 3).value(2.0, 6).value(-1e-9, 3).value(Double.NaN, 3)
                .value(Double.POSITIVE_INFINITY, 6).end();
        assertEquals("[0.123,2.000000,-0.000,null,null]", sb.toString());
    }

    @Test
    void stringsAreEscapedAndNothingHides() {
        String nasty = "q\"b\\n\nt\tc\u0001del\u007fc1\u0085ls\u2028rlo\u202ezw\u200bbom\ufeffé€";
        w.beginObject(Layout.COMPACT).name("k\u202e").value(nasty).end();
        assertEquals("{\"k\\u202e\":\"q\\\"b\\\\n\\nt\\tc\\u0001del\\u007fc1\\u0085ls\\u2028rlo\\u202ezw\\u200bbom"
                + "\\ufeffé€\"}", sb.toString());
    }

    @Test
    void everyStringReadsBackAsWritten() throws Exception {
        ObjectMapper json = new ObjectMapper();
        Random r = new Random(8259);
        for (int i = 0; i < 2_000; i++) {
            char[] c = new char[r.nextInt(40)];
            for (int k = 0; k < c.length; k++) {
                // mostly the first 0x300 code points (controls, quotes, Latin), some of the hidden formatting ones
                c[k] = (char) (r.nextInt(8) == 0 ? 0x2000 + r.nextInt(0x80) : r.nextInt(0x300));
            }
            String s = new String(c);
            sb.setLength(0);
            new JsonWriter(sb).beginObject(Layout.LINE).name(s).value(s).end();
            JsonNode node = json.readTree(sb.toString());
            assertEquals(s, node.get(s).asText());
            for (int k = 0; k < sb.length(); k++) {
                assertTrue(!JsonWriter.isHidden(sb.charAt(k)), "a hidden character written raw: " + sb);
            }
        }
    }

    @Test
    void misuseIsAProgrammingError() {
        assertThrows(IllegalStateException.class, () -> new JsonWriter(new StringBuilder()).end());
        assertThrows(IllegalStateException.class, () -> new JsonWriter(new StringBuilder()).name("x"));
        assertThrows(IllegalStateException.class,
                () -> new JsonWriter(new StringBuilder()).beginObject(Layout.COMPACT).value(1));
        assertThrows(IllegalStateException.class,
                () -> new JsonWriter(new StringBuilder()).beginObject(Layout.COMPACT).name("a").end());
        assertThrows(IllegalStateException.class,
                () -> new JsonWriter(new StringBuilder()).beginArray(Layout.COMPACT).name("a"));
    }
}
