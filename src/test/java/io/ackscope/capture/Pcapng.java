package io.ackscope.capture;

/** Test helper: pcapng fixtures, one block at a time. */
final class Pcapng {
    private Pcapng() {
    }

    /** A whole block: type, total length, body (padded to 4), total length again. */
    static byte[] block(boolean be, int type, byte[] body) {
        int padded = (body.length + 3) & ~3;
        int len = 12 + padded;
        return (be ? Bytes.be() : Bytes.le())
                .u32(type)          // block type
                .u32(len)           // block total length
                .raw(body).pad4()   // body
                .u32(len)           // block total length (trailer)
                .build();
    }

    static Bytes body(boolean be) {
        return be ? Bytes.be() : Bytes.le();
    }

    static byte[] shb(boolean be, byte[] options) {
        return block(be, PcapngBlocks.SHB, body(be)
                .u32(PcapngBlocks.BYTE_ORDER_MAGIC)     // byte-order magic
                .u16(1).u16(0)                          // version 1.0
                .u64(-1)                                // section length: unknown
                .raw(options).build());
    }

    static byte[] shb(boolean be) {
        return shb(be, new byte[0]);
    }

    static byte[] idb(boolean be, int linkType, long snaplen, byte[] options) {
        return block(be, PcapngBlocks.IDB, body(be)
                .u16(linkType)      // link type
                .u16(0)             // reserved
                .u32(snaplen)       // snap length
                .raw(options).build());
    }

    static byte[] idb(boolean be, int linkType, long snaplen) {
        return idb(be, linkType, snaplen, new byte[0]);
    }

    static byte[] epb(boolean be, long iface, long units, byte[] data, long orig, byte[] options) {
        return block(be, PcapngBlocks.EPB, body(be)
                .u32(iface)             // interface id
                .u32(units >>> 32)      // timestamp high
                .u32(units)             // timestamp low
                .u32(data.length)       // captured length
                .u32(orig)              // original length
                .raw(data).pad4()       // packet data
                .raw(options).build());
    }

    static byte[] epb(boolean be, long iface, long units, byte[] data) {
        return epb(be, iface, units, data, data.length, new byte[0]);
    }

    static byte[] spb(boolean be, long orig, byte[] data) {
        return block(be, PcapngBlocks.SPB, body(be)
                .u32(orig)              // original length
                .raw(data).build());
    }

    /** One option: code, length, value padded to 4. */
    static byte[] option(boolean be, int code, byte[] value) {
        return body(be).u16(code).u16(value.length).raw(value).pad4().build();
    }

    static byte[] endOfOptions(boolean be) {
        return body(be).u16(0).u16(0).build();
    }
}
