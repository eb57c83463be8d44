package io.ackscope.report;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TextTest {

    private static String html(String s, int max) {
        StringBuilder sb = new StringBuilder();
        Text.html(sb, s, max);
        return sb.toString();
    }

    @Test
    void escapesEveryCharacterWithMeaningInTextOrAttributes() {
        assertEquals("&lt;script&gt;a&amp;b&quot;c&#39;d&lt;/style&gt;", html("<script>a&b\"c'd</style>", 100));
    }

    @Test
    void controlCharactersBecomeVisibleAscii() {
        assertEquals("a\\x00b\\x1b[31m\\x7f\\x85\\x0d\\x0a", Text.visible("a\u0000b\u001b[31m\u007f\u0085\r\n", 100));
    }

    @Test
    void bidiZeroWidthAndLineSeparatorsBecomeVisible() {
        assertEquals("\\u202eevil\\u200b\\u2028\\ufeff", Text.visible("\u202eevil\u200b\u2028\ufeff", 100));
    }

    @Test
    void longTextIsCutAndMarked() {
        assertEquals("abc…", Text.visible("abcdef", 3));
        assertEquals("abcdef", Text.visible("abcdef", 6));
    }

    @Test
    void cutNeverSplitsASurrogatePairAndLoneSurrogatesAreReplaced() {
        String emoji = "\uD83D\uDE00";
        assertEquals("a…", Text.visible("a" + emoji, 2));
        assertEquals("a" + emoji, Text.visible("a" + emoji, 3));
        assertEquals("\uFFFDx\uFFFD", Text.visible("\uDE00x\uD83D", 10));
    }

    @Test
    void nullIsEmpty() {
        assertEquals("", html(null, 10));
    }

    @Test
    void randomInputNeverYieldsMarkupOrHiddenCharacters() {
        Random r = new Random(42);
        for (int n = 0; n < 2000; n++) {
            char[] c = new char[r.nextInt(60)];
            for (int i = 0; i < c.length; i++) {
                c[i] = r.nextInt(4) == 0 ? "<>&\"'\u0000\u202e".charAt(r.nextInt(7)) : (char) r.nextInt(0x10000);
            }
            String out = html(new String(c), 40);
            assertFalse(out.contains("<") || out.contains(">") || out.contains("\"") || out.contains("'"), out);
            for (int i = 0; i < out.length(); i++) {
                char ch = out.charAt(i);
                assertFalse(Text.isHidden(ch), "hidden character U+" + Integer.toHexString(ch) + " in " + out);
                if (Character.isHighSurrogate(ch)) {
                    assertTrue(i + 1 < out.length() && Character.isLowSurrogate(out.charAt(++i)), "lone surrogate");
                } else {
                    assertFalse(Character.isLowSurrogate(ch), "lone surrogate");
                }
            }
        }
    }
}
