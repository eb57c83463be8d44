/**
 * Decoding one frame's bytes into the fields the TCP engine needs: link layers (Ethernet, VLAN/QinQ, Linux SLL and
 * SLL2, raw IP, BSD loopback), IPv4 and the IPv6 extension-header chain, tunnels, TCP with its options, and the
 * headers quoted inside ICMP errors.
 *
 * <p>{@link io.ackscope.decode.PacketDecoder} is a flyweight in the style of gopacket's DecodingLayerParser:
 * {@code decode} resets every field, allocates nothing and never throws. A frame that does not decode fully is data:
 * it says where decoding stopped ({@link io.ackscope.decode.Layer}), why ({@link io.ackscope.decode.StopReason})
 * and at which offset, so outputs can count every frame by reason.
 *
 * <p>The façade {@code PacketDecoder} holds every decoded field; one stateless, package-private decoder per layer
 * writes them: {@code LinkDecoder} (link types, VLAN, MPLS), {@code Ipv4Decoder}, {@code Ipv6ChainDecoder} (the
 * extension-header chain), {@code TunnelDecoder} (GRE), {@code TcpDecoder} with {@code TcpOptions},
 * {@code DatagramDecoder} (UDP, ICMP, ICMPv6) with {@code QuotedHeaders}.
 *
 * <p>Uses {@code capture} (link types) only; no TCP state, no Spark.
 */
package io.ackscope.decode;
