package io.ackscope.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ackscope.json.LayoutPrinter.Layout;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonTest {

    @Test
    void compactHasNoSpaces() {
        String s = Json.string(w -> {
            w.writeStartObject();
            w.writeNumberField("a", 1);
            w.writeArrayFieldStart("b");
            w.writeBoolean(true);
            w.writeString("x");
            w.writeNull();
            w.writeEndArray();
            w.writeObjectFieldStart("c");
            w.writeEndObject();
            w.writeEndObject();
        });
        assertEquals("{\"a\":1,\"b\":[true,\"x\",null],\"c\":{}}", s);
    }

    @Test
    void blocksIndentTwoSpacesPerLevelAndLinesStayOnOneLine() throws IOException {
        StringWriter out = new StringWriter();
        LayoutPrinter p = new LayoutPrinter();
        try (JsonGenerator w = Json.generator(out, p)) {
            p.next(Layout.BLOCK);
            w.writeStartObject();
            w.writeFieldName("rows");
            p.next(Layout.BLOCK);
            w.writeStartArray();
            p.next(Layout.LINE);
            w.writeStartObject();
            w.writeNumberField("n", 1);
            w.writeStringField("s", "a");
            w.writeEndObject();
            p.next(Layout.BLOCK);
            w.writeStartObject();
            w.writeFieldName("v");
            w.writeStartArray(); // no layout named: compact
            w.writeNumber(1);
            w.writeNumber(2);
            w.writeEndArray();
            w.writeEndObject();
            w.writeEndArray();
            w.writeFieldName("empty");
            p.next(Layout.BLOCK);
            w.writeStartArray();
            w.writeEndArray();
            w.writeEndObject();
        }
        assertEquals("""
                {
                  "rows": [
                    {"n": 1, "s": "a"},
                    {
                      "v": [1,2]
                    }
                  ],
                  "empty": []
                }""", out.toString());
    }

    @Test
    void doublesHaveTheirDecimalsAndNonFiniteIsNull() {
        String s = Json.string(w -> {
            w.writeStartArray();
            Json.number(w, 0.1234567, 3);
            Json.number(w, 2.0, 6);
            Json.number(w, -1e-9, 3);
            Json.number(w, 1e21, 1);
            Json.number(w, Double.NaN, 3);
            Json.number(w, Double.POSITIVE_INFINITY, 6);
            w.writeEndArray();
        });
        assertEquals("[0.123,2.000000,-0.000,1000000000000000000000.0,null,null]", s);
    }

    @Test
    void bigDecimalsArePlainAndExact() {
        String s = Json.string(w -> {
            w.writeStartArray();
            Json.number(w, new BigDecimal("1E-6"));
            Json.number(w, new BigDecimal(BigInteger.valueOf(1_700_000_000_123456L), 6));
            Json.number(w, new BigDecimal("1.5E+3"));
            w.writeEndArray();
        });
        assertEquals("[0.000001,1700000000.123456,1500]", s);
    }

    @Test
    void stringsAreEscapedAndNothingHides() {
        String nasty = "q\"b\\n\nt\tc\u0001cr\rbs\bff\fdel\u007fc1\u0085ls\u2028ps\u2029rlo\u202ezw\u200bbom\ufeff"
                + "é€\ud83d\ude00";
        String s = Json.string(w -> {
            w.writeStartObject();
            w.writeStringField("k\u202e", nasty);
            w.writeEndObject();
        });
        assertEquals("{\"k\\u202e\":\"q\\\"b\\\\n\\nt\\tc\\u0001cr\\u000dbs\\u0008ff\\u000cdel\\u007fc1\\u0085"
                + "ls\\u2028ps\\u2029rlo\\u202ezw\\u200bbom\\ufeffé€\ud83d\ude00\"}", s);
    }

    @Test
    void noStringCanCloseAScriptOrStartAnEntity() throws IOException {
        String attack = "</script><script>alert(1)</script><!-- &amp; -->";
        String expected = "\"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\\u003c!-- "
                + "\\u0026amp; --\\u003e\"";
        assertEquals(expected, Json.string(w -> w.writeString(attack)));
        // the mapper's own writers (values, bytes, trees) escape the same way
        assertEquals(expected, Json.MAPPER.writeValueAsString(attack));
        assertEquals(expected, new String(Json.MAPPER.writeValueAsBytes(attack), StandardCharsets.UTF_8));
        ObjectNode tree = Json.MAPPER.createObjectNode().put("a", attack + "\u2028");
        String pretty = Json.pretty().writeValueAsString(tree);
        assertFalse(pretty.contains("<") || pretty.contains(">") || pretty.contains("&") || pretty.contains("\u2028"),
                pretty);
        assertEquals(attack + "\u2028", Json.MAPPER.readTree(pretty).get("a").asText());
    }

    @Test
    void everyStringReadsBackAsWrittenWithNothingHiddenRaw() throws Exception {
        ObjectMapper plain = new ObjectMapper(); // an independent reader
        Random r = new Random(8259);
        for (int i = 0; i < 2_000; i++) {
            char[] c = new char[r.nextInt(40)];
            for (int k = 0; k < c.length; k++) {
                // mostly the first 0x300 code points (controls, quotes, Latin), some of the hidden formatting ones
                c[k] = (char) (r.nextInt(8) == 0 ? 0x2000 + r.nextInt(0x80) : r.nextInt(0x300));
            }
            String s = new String(c);
            String text = Json.string(w -> {
                w.writeStartObject();
                w.writeStringField(s, s);
                w.writeEndObject();
            });
            byte[] bytes = Json.MAPPER.writeValueAsBytes(Map.of(s, s));
            for (String written : new String[] {text, new String(bytes, StandardCharsets.UTF_8)}) {
                JsonNode node = plain.readTree(written);
                assertEquals(s, node.get(s).asText());
                for (int k = 0; k < written.length(); k++) {
                    char ch = written.charAt(k);
                    assertTrue(!Json.isHidden(ch) && ch != '<' && ch != '>' && ch != '&', "written raw: " + written);
                }
            }
        }
    }

    @Test
    void mapsAreWrittenInKeyOrder() throws IOException {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("b", 1);
        m.put("a", 2);
        assertEquals("{\"a\":2,\"b\":1}", Json.MAPPER.writeValueAsString(m));
    }

    @Test
    void jsonLinesHaveNothingBetweenValuesButWhatTheCallerWrites() throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator w = Json.lines(out)) {
            for (int i = 0; i < 3; i++) {
                w.writeStartObject();
                w.writeNumberField("i", i);
                w.writeEndObject();
                w.writeRaw('\n');
            }
        }
        assertEquals("{\"i\":0}\n{\"i\":1}\n{\"i\":2}\n", out.toString());
    }

    @Test
    void misuseIsAProgrammingError() {
        assertThrows(IllegalStateException.class, () -> Json.string(JsonGenerator::writeEndObject));
        assertThrows(IllegalStateException.class, () -> Json.string(w -> w.writeFieldName("x")));
        assertThrows(IllegalStateException.class, () -> Json.string(w -> {
            w.writeStartObject();
            w.writeNumber(1);
        }));
        assertThrows(IllegalStateException.class, () -> Json.string(w -> {
            w.writeStartArray();
            w.writeFieldName("a");
        }));
    }
}
