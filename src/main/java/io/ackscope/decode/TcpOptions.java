package io.ackscope.decode;

import static io.ackscope.decode.BigEndian.u16;
import static io.ackscope.decode.BigEndian.u32;
import static io.ackscope.decode.BigEndian.u8;

/** TCP option parsing (RFC 9293 section 3.1, RFC 7323, RFC 2018, RFC 7413) into a {@link PacketDecoder}. */
final class TcpOptions {
    private TcpOptions() {
    }

    static final int EOL = 0, NOP = 1, MSS = 2, WINDOW_SCALE = 3, SACK_PERMITTED = 4, SACK = 5, TIMESTAMPS = 8,
            FAST_OPEN = 34, EXPERIMENTAL = 254;
    /** RFC 7413 section 4.1.1: Fast Open before its code point, as experimental option 254 with this magic. */
    static final int FAST_OPEN_EXPERIMENT_ID = 0xf989;
    /** RFC 2018: a SACK option carries 1 to 4 blocks of 8 bytes after its 2-byte kind and length. */
    static final int SACK_BLOCK = 8, MAX_SACK_BLOCKS = 4;

    /**
     * Parses the options in {@code [from, capturedEnd)}; {@code headerEnd} is where the header ends according to
     * its data offset (it may lie past {@code capturedEnd} when the snap length cut the options: parsing then stops
     * quietly at the first option not wholly captured).
     *
     * @return false if an option has an invalid length (below 2, running past the header, or wrong for its kind);
     *         parsing stops at an option whose length cannot be trusted, and skips one whose value is unusable
     */
    static boolean parse(PacketDecoder d, byte[] b, int from, int capturedEnd, int headerEnd) {
        boolean valid = true;
        int o = from;
        while (o < capturedEnd) {
            int kind = u8(b, o); // safe: o < capturedEnd
            if (kind == EOL) {
                break;
            }
            if (kind == NOP) {
                o++;
                continue;
            }
            if (capturedEnd - o < 2) {
                valid = headerEnd - o >= 2; // the length byte is in the header but was not captured
                break;
            }
            int length = u8(b, o + 1); // safe: 2 bytes captured
            if (length < 2 || length > headerEnd - o) {
                valid = false;
                break;
            }
            if (length > capturedEnd - o) {
                break; // cut by the snap length
            }
            // safe from here: `length` bytes at o are captured
            d.tcpOptionsSet = true;
            valid &= option(d, b, kind, o, length);
            o += length;
        }
        return valid;
    }

    /**
     * Reads one option of {@code length} bytes at {@code o}, all captured, into {@code d}; returns false if its
     * length is wrong for its kind (the option is then skipped).
     */
    private static boolean option(PacketDecoder d, byte[] b, int kind, int o, int length) {
        switch (kind) {
            case MSS:
                if (length == 4) {
                    d.mss = u16(b, o + 2);
                } else {
                    return false;
                }
                break;
            case WINDOW_SCALE:
                if (length == 3) {
                    d.windowScale = u8(b, o + 2);
                } else {
                    return false;
                }
                break;
            case SACK_PERMITTED:
                if (length == 2) {
                    d.sackPermitted = true;
                } else {
                    return false;
                }
                break;
            case SACK:
                if (length >= 2 + SACK_BLOCK && (length - 2) % SACK_BLOCK == 0) {
                    int blocks = Math.min(MAX_SACK_BLOCKS, (length - 2) / SACK_BLOCK);
                    for (int i = 0; i < blocks; i++) {
                        d.sackLeft[i] = u32(b, o + 2 + i * SACK_BLOCK);
                        d.sackRight[i] = u32(b, o + 6 + i * SACK_BLOCK);
                    }
                    d.sackBlockCount = blocks;
                } else {
                    return false;
                }
                break;
            case TIMESTAMPS:
                if (length == 10) {
                    d.hasTimestamps = true;
                    d.tsVal = u32(b, o + 2);
                    d.tsEcr = u32(b, o + 6);
                } else {
                    return false;
                }
                break;
            case FAST_OPEN:
                d.hasFastOpen = true;
                d.fastOpenCookieLength = length - 2;
                break;
            case EXPERIMENTAL:
                if (length >= 4 && u16(b, o + 2) == FAST_OPEN_EXPERIMENT_ID) {
                    d.hasFastOpen = true;
                    d.fastOpenCookieLength = length - 4;
                }
                break;
            default:
                break; // unknown kinds are skipped by their length
        }
        return true;
    }
}
