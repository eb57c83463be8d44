package io.ackscope.decode;

/** IP protocol numbers (IANA "Assigned Internet Protocol Numbers") the decoders follow, including IPv6 extensions. */
final class IpProtocols {
    private IpProtocols() {
    }

    static final int HOPOPTS = 0, ICMP = 1, IPIP = 4, TCP = 6, UDP = 17, IPV6 = 41, ROUTING = 43, FRAGMENT = 44,
            GRE = 47, AH = 51, ICMPV6 = 58, NONE = 59, DSTOPTS = 60;
}
