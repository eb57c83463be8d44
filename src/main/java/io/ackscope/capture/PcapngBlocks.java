package io.ackscope.capture;

/**
 * The pcapng block types ackscope knows (draft-ietf-opsawg-pcapng), each block type's smallest possible length, and
 * the kinds {@link PcapngReader} counts blocks by (its {@code info()}). {@link SplitLocator} uses the type codes too.
 */
final class PcapngBlocks {
    private PcapngBlocks() {
    }

    static final int SHB = 0x0A0D0D0A;
    static final int IDB = 1;
    static final int PB = 2;
    static final int SPB = 3;
    static final int NRB = 4;
    static final int ISB = 5;
    static final int EPB = 6;
    static final int JOURNAL = 9;
    static final int DSB = 0x0A;
    static final int CB_COPY = 0x0000_0BAD;
    static final int CB_NOCOPY = 0x4000_0BAD;
    static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;

    /** Kinds of block, as {@code info()} counts them. */
    static final String[] KIND_NAMES = {"SHB", "IDB", "PB", "SPB", "NRB", "ISB", "EPB", "DSB", "CB",
        "journal", "unknown"};
    static final int K_SHB = 0;
    static final int K_IDB = 1;
    static final int K_PB = 2;
    static final int K_SPB = 3;
    static final int K_NRB = 4;
    static final int K_ISB = 5;
    static final int K_EPB = 6;
    static final int K_DSB = 7;
    static final int K_CB = 8;
    static final int K_JOURNAL = 9;
    static final int K_UNKNOWN = 10;

    /** The smallest length a block of {@code type} can have (header, fixed fields and trailer). */
    static int minimumLength(int type) {
        switch (type) {
            case IDB: return 20;
            case PB: case EPB: return 32;
            case SPB: return 16;
            case ISB: return 24;
            case CB_COPY: case CB_NOCOPY: return 16;
            default: return 12;
        }
    }

    /** The name {@code info()} counts a block of {@code type} under. */
    static String kindName(int type) {
        return KIND_NAMES[kind(type)];
    }

    /** The kind (an index into {@link #KIND_NAMES}) of a block of {@code type}. */
    static int kind(int type) {
        switch (type) {
            case SHB: return K_SHB;
            case IDB: return K_IDB;
            case PB: return K_PB;
            case SPB: return K_SPB;
            case NRB: return K_NRB;
            case ISB: return K_ISB;
            case EPB: return K_EPB;
            case DSB: return K_DSB;
            case CB_COPY: case CB_NOCOPY: return K_CB;
            case JOURNAL: return K_JOURNAL;
            default: return K_UNKNOWN;
        }
    }
}
