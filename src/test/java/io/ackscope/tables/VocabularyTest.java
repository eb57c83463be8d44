package io.ackscope.tables;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The tables' one vocabulary (docs/schema.md, Conventions), checked on every column of every table {@code analyze}
 * and {@code load --out} write, so a new column that breaks it fails here: an instant is a TIMESTAMP named
 * {@code *_time}, a frame number is named {@code frame} or {@code *_frame}, a unit shows in the name, one name means
 * one thing in every table, and a row about one side carries that host's address. Each rule collects every
 * violation, so one run lists them all.
 */
class VocabularyTest {

    private static List<TableSchema> tables() {
        List<TableSchema> t = new ArrayList<>(SchemaDoc.tables());
        t.add(LoadRequestsTable.TABLE);
        return t;
    }

    private static List<String> violations(Rule rule) {
        List<String> bad = new ArrayList<>();
        for (TableSchema t : tables()) {
            for (Column c : t.columns()) {
                String why = rule.check(t, c);
                if (why != null) {
                    bad.add(t.name() + "." + c.name() + ": " + why);
                }
            }
        }
        return bad;
    }

    private interface Rule {
        /** Why the column breaks the rule, or null. */
        String check(TableSchema table, Column c);
    }

    @Test
    void instantsAreTimestampsNamedTime() {
        assertEquals(List.of(), violations((t, c) -> {
            boolean instant = c.type() == ColumnType.TIMESTAMP;
            boolean named = c.name().endsWith("_time");
            if (instant != named) {
                return instant ? "a timestamp: name it *_time" : "*_time is for timestamps (type " + c.type() + ")";
            }
            return c.name().equals("timestamp") || c.name().endsWith("_timestamp")
                    ? "an instant is *_time, not *timestamp" : null;
        }));
    }

    @Test
    void frameNumbersAreNamedFrame() {
        assertEquals(List.of(), violations((t, c) -> {
            boolean frameName = c.name().equals("frame") || c.name().endsWith("_frame");
            boolean scalar = c.type() == ColumnType.LONG;
            boolean saysFrameNumber = c.doc().toLowerCase(Locale.ROOT).matches("(?s).*\\bframe number\\b.*");
            if (frameName && !scalar) {
                return "*_frame is one frame number (bigint), not " + c.type();
            }
            if (scalar && saysFrameNumber && !frameName) {
                return "documented as a frame number: name it *_frame";
            }
            return c.name().endsWith("_number") ? "a number says what it numbers (*_frame)" : null;
        }));
    }

    @Test
    void unitsShowInTheName() {
        assertEquals(List.of(), violations((t, c) -> {
            String[][] suffixes = {{"µs", "_us"}, {"ns", "_ns"}};
            for (String[] s : suffixes) {
                if (c.unit().equals(s[0]) != c.name().endsWith(s[1])) {
                    return "unit " + c.unit() + " and name disagree (" + s[0] + " is *" + s[1] + ")";
                }
            }
            return c.name().endsWith("_bytes") && !c.unit().equals("bytes") ? "*_bytes counts bytes" : null;
        }));
    }

    @Test
    void oneNameMeansOneThingInEveryTable() {
        Map<String, Column> first = new HashMap<>();
        Map<String, String> where = new HashMap<>();
        assertEquals(List.of(), violations((t, c) -> {
            Column seen = first.putIfAbsent(c.name(), c);
            where.putIfAbsent(c.name(), t.name());
            if (seen != null && (seen.type() != c.type() || !seen.unit().equals(c.unit()))) {
                return c.type() + " " + c.unit() + " here, " + seen.type() + " " + seen.unit() + " in "
                        + where.get(c.name());
            }
            return null;
        }));
    }

    @Test
    void aRowAboutOneSideCarriesThatHostsAddress() {
        assertEquals(List.of(), violations((t, c) -> {
            if (c.type() != ColumnType.STRING || !c.doc().startsWith("CLIENT or SERVER")) {
                return null;
            }
            String ip = c.name().replaceAll("_side$", "") + "_ip";
            boolean has = t.columns().stream().anyMatch(o -> o.name().equals(ip) && o.type() == ColumnType.STRING);
            return has ? null : "names a side: the table needs " + ip + ", that host's address";
        }));
    }
}
