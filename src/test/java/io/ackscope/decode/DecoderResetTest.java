package io.ackscope.decode;

import io.ackscope.capture.LinkTypes;
import static io.ackscope.decode.Fixtures.ETHERNET_IPV4_TCP_SYN;
import static io.ackscope.decode.Fixtures.ETHERTYPE_IPV4;
import static io.ackscope.decode.Fixtures.ETHERTYPE_IPV6;
import static io.ackscope.decode.Fixtures.ETHERTYPE_VLAN;
import static io.ackscope.decode.Fixtures.ICMP;
import static io.ackscope.decode.Fixtures.TCP;
import static io.ackscope.decode.Fixtures.UDP;
import static io.ackscope.decode.Fixtures.cat;
import static io.ackscope.decode.Fixtures.ethernet;
import static io.ackscope.decode.Fixtures.fill;
import static io.ackscope.decode.Fixtures.hex;
import static io.ackscope.decode.Fixtures.icmp;
import static io.ackscope.decode.Fixtures.ipv4;
import static io.ackscope.decode.Fixtures.ipv6;
import static io.ackscope.decode.Fixtures.ipv6Extension;
import static io.ackscope.decode.Fixtures.ipv6Fragment;
import static io.ackscope.decode.Fixtures.tcp;
import static io.ackscope.decode.Fixtures.udp;
import static io.ackscope.decode.Fixtures.vlanTag;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A reused decoder holds exactly what a fresh one holds after the same packet: decode() resets every field. */
class DecoderResetTest {

    static final List<byte[]> MIX = List.of(
            ETHERNET_IPV4_TCP_SYN,
            ethernet(ETHERTYPE_IPV4, ipv4(TCP, tcp(9, hex("05 0a 00 00 00 01 00 00 00 02", "22 02", "01 01",
                    "01 01"), fill(3, 'a')))),
            ethernet(ETHERTYPE_VLAN, cat(vlanTag(5, ETHERTYPE_IPV6), ipv6(44, cat(ipv6Fragment(UDP, 0, true),
                    udp(fill(9, 'u'), 100))))),
            ethernet(ETHERTYPE_IPV4, ipv4(ICMP, icmp(3, 3, ipv4(TCP, tcp(fill(4, 'q')))))),
            ethernet(ETHERTYPE_IPV6, ipv6(0, cat(ipv6Extension(TCP), tcp(1, new byte[0], fill(8, 'z'))))),
            ethernet(0x0806, fill(28, 1)),
            fill(60, 0xff),
            new byte[0]);

    private static void assertSameState(PacketDecoder expected, PacketDecoder actual, String what)
            throws IllegalAccessException {
        int compared = 0;
        for (Field f : PacketDecoder.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            f.setAccessible(true);
            Object e = f.get(expected);
            Object a = f.get(actual);
            if (e instanceof long[]) {
                assertArrayEquals((long[]) e, (long[]) a, what + ": " + f.getName());
            } else {
                assertEquals(e, a, what + ": " + f.getName());
            }
            compared++;
        }
        assertTrue(compared > 60, "compared " + compared + " fields");
    }

    @Test
    void everyFieldIsResetBetweenPackets() throws IllegalAccessException {
        PacketDecoder reused = new PacketDecoder();
        for (byte[] previous : MIX) {
            for (byte[] current : MIX) {
                reused.decode(LinkTypes.EN10MB, previous, 0, previous.length, previous.length);
                reused.decode(LinkTypes.EN10MB, current, 0, current.length, current.length);
                PacketDecoder fresh = new PacketDecoder();
                fresh.decode(LinkTypes.EN10MB, current, 0, current.length, current.length);
                assertSameState(fresh, reused, "after " + MIX.indexOf(previous) + " then " + MIX.indexOf(current));
            }
        }
    }
}
