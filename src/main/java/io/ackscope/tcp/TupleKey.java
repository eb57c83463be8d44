package io.ackscope.tcp;

/**
 * Canonical (direction-independent) 4-tuple: the lower endpoint by (address, port) first. Mutable so one probe
 * instance serves every lookup without allocating; keys stored in maps are copies and never change.
 */
public final class TupleKey {
    long aHi, aLo, bHi, bLo;
    int aPort, bPort;

    /** Sets this key to the canonical 4-tuple of {@code s}. */
    public TupleKey set(Segment s) {
        int c = Long.compareUnsigned(s.srcHi, s.dstHi);
        if (c == 0) {
            c = Long.compareUnsigned(s.srcLo, s.dstLo);
        }
        if (c == 0) {
            c = Integer.compare(s.srcPort, s.dstPort);
        }
        if (c <= 0) {
            aHi = s.srcHi;
            aLo = s.srcLo;
            aPort = s.srcPort;
            bHi = s.dstHi;
            bLo = s.dstLo;
            bPort = s.dstPort;
        } else {
            aHi = s.dstHi;
            aLo = s.dstLo;
            aPort = s.dstPort;
            bHi = s.srcHi;
            bLo = s.srcLo;
            bPort = s.srcPort;
        }
        return this;
    }

    public TupleKey copy(TupleKey o) {
        aHi = o.aHi;
        aLo = o.aLo;
        bHi = o.bHi;
        bLo = o.bLo;
        aPort = o.aPort;
        bPort = o.bPort;
        return this;
    }

    /** Lower endpoint's address (high, low 64 bits) and port; the upper endpoint is {@code b}. */
    public long aHi() {
        return aHi;
    }

    public long aLo() {
        return aLo;
    }

    public int aPort() {
        return aPort;
    }

    public long bHi() {
        return bHi;
    }

    public long bLo() {
        return bLo;
    }

    public int bPort() {
        return bPort;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TupleKey k)) {
            return false;
        }
        return aLo == k.aLo && bLo == k.bLo && aPort == k.aPort && bPort == k.bPort && aHi == k.aHi && bHi == k.bHi;
    }

    @Override
    public int hashCode() {
        long h = aLo * 0x9E3779B97F4A7C15L + bLo;
        h = h * 0x9E3779B97F4A7C15L + aHi * 31 + bHi;
        h = h * 0x9E3779B97F4A7C15L + ((long) aPort << 16 | bPort);
        return (int) (h ^ (h >>> 32));
    }

    @Override
    public String toString() {
        return Addresses.endpoint(aHi, aLo, aPort) + " <-> " + Addresses.endpoint(bHi, bLo, bPort);
    }
}
