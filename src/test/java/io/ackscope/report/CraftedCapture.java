package io.ackscope.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A classic pcap of one HTTP exchange whose request line and Host header carry markup, quotes and control
 * characters: what an attacker who can get traffic into a capture would send to the person reading the report.
 */
final class CraftedCapture {
    private CraftedCapture() {
    }

    /** Sets a global if it ever runs. */
    static final String SCRIPT = "<script>window.__ackscopePwned=1</script>";
    /** No spaces (the request line must stay valid); control characters first, where a flow-graph label shows them. */
    static final String TARGET = "/\u0001\u001b[31m" + SCRIPT + "\"'><img/src=x/onerror=\"window.__ackscopePwned=2\">"
            + "</style></title><style>body{display:none}</style>";
    static final String HOST = "<svg onload=\"window.__ackscopePwned=3\">\"'</style>\u0007\u202eevil";

    static final int CLIENT = 0x0A000001, SERVER = 0x0A000002;   // 10.0.0.1 -> 10.0.0.2
    static final int CLIENT_PORT = 40000, SERVER_PORT = 80;

    static Path write(Path file) throws IOException {
        byte[] request = ("GET " + TARGET + " HTTP/1.1\r\nHost: " + HOST + "\r\nUser-Agent: x\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8);
        byte[] response = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.ISO_8859_1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(0xA1B2C3D4)     // magic: microsecond timestamps, little-endian
                .putShort((short) 2).putShort((short) 4)   // version 2.4
                .putInt(0).putInt(0)                       // thiszone, sigfigs
                .putInt(65535)                             // snap length
                .putInt(1);                                // LINKTYPE_ETHERNET
        out.write(h.array());
        long cIsn = 1000, sIsn = 5000;
        long t = 1_700_000_000_000_000L;   // µs
        frame(out, t, true, cIsn, 0, 0x002, new byte[0]);                                  // SYN
        frame(out, t + 10_000, false, sIsn, cIsn + 1, 0x012, new byte[0]);                 // SYN/ACK
        frame(out, t + 20_000, true, cIsn + 1, sIsn + 1, 0x010, new byte[0]);              // ACK
        frame(out, t + 21_000, true, cIsn + 1, sIsn + 1, 0x018, request);                  // request
        frame(out, t + 31_000, false, sIsn + 1, cIsn + 1 + request.length, 0x018, response); // response
        frame(out, t + 41_000, true, cIsn + 1 + request.length, sIsn + 1 + response.length, 0x011, new byte[0]);
        frame(out, t + 51_000, false, sIsn + 1 + response.length, cIsn + 2 + request.length, 0x011, new byte[0]);
        frame(out, t + 61_000, true, cIsn + 2 + request.length, sIsn + 2 + response.length, 0x010, new byte[0]);
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, out.toByteArray());
        return file;
    }

    private static void frame(ByteArrayOutputStream out, long micros, boolean fromClient, long seq, long ack,
                              int flags, byte[] payload) throws IOException {
        int len = 14 + 20 + 20 + payload.length;
        ByteBuffer f = ByteBuffer.allocate(len).order(ByteOrder.BIG_ENDIAN);
        f.put(new byte[]{2, 0, 0, 0, 0, (byte) (fromClient ? 2 : 1)})   // destination MAC
                .put(new byte[]{2, 0, 0, 0, 0, (byte) (fromClient ? 1 : 2)})   // source MAC
                .putShort((short) 0x0800);                                    // EtherType IPv4
        f.put((byte) 0x45).put((byte) 0)                 // version 4, IHL 5; DSCP/ECN
                .putShort((short) (20 + 20 + payload.length))   // total length
                .putShort((short) 0).putShort((short) 0x4000)   // id; flags DF
                .put((byte) 64).put((byte) 6)                   // TTL; protocol TCP
                .putShort((short) 0)                             // header checksum (not checked)
                .putInt(fromClient ? CLIENT : SERVER).putInt(fromClient ? SERVER : CLIENT);
        f.putShort((short) (fromClient ? CLIENT_PORT : SERVER_PORT))   // source port
                .putShort((short) (fromClient ? SERVER_PORT : CLIENT_PORT))   // destination port
                .putInt((int) seq).putInt((int) ack)
                .put((byte) 0x50).put((byte) flags)             // data offset 5; flags
                .putShort((short) 65535)                        // window
                .putShort((short) 0).putShort((short) 0)        // checksum (not checked); urgent pointer
                .put(payload);
        ByteBuffer r = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        r.putInt((int) (micros / 1_000_000)).putInt((int) (micros % 1_000_000)).putInt(len).putInt(len);
        out.write(r.array());
        out.write(f.array());
    }
}
