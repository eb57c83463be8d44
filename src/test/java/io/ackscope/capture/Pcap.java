package io.ackscope.capture;

/** Test helper: classic pcap fixtures. */
final class Pcap {
    private Pcap() {
    }

    /** 24-byte file header. */
    static Bytes header(boolean bigEndian, int magic, int major, int minor, long snaplen, long linkField) {
        Bytes b = bigEndian ? Bytes.be() : Bytes.le();
        return b.u32(magic)         // magic, written in the file's byte order
                .u16(major)         // version major
                .u16(minor)         // version minor
                .u32(0)             // thiszone
                .u32(0)             // sigfigs
                .u32(snaplen)       // snap length
                .u32(linkField);    // link type (+ FCS / reserved bits)
    }

    static Bytes header() {
        return header(false, PcapFileHeader.MAGIC_MICROS, 2, 4, 65535, 1);
    }

    /** Appends a 16-byte record header and the data. */
    static Bytes record(Bytes b, long sec, long frac, long incl, long orig, byte[] data) {
        return b.u32(sec)           // ts_sec
                .u32(frac)          // ts_usec / ts_nsec
                .u32(incl)          // incl_len
                .u32(orig)          // orig_len
                .raw(data);
    }

    static Bytes record(Bytes b, long sec, long frac, byte[] data) {
        return record(b, sec, frac, data.length, data.length, data);
    }
}
