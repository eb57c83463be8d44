package io.ackscope.decode;

/** Protocol layers the decoder knows; used to say where decoding stopped. */
public enum Layer {
    NONE, LINK, VLAN, MPLS, IPV4, IPV6, IPV6_EXTENSION, GRE, TCP, UDP, ICMP, ICMPV6
}
