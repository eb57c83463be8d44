/**
 * Live probes through libpcap (pcap4j): hping3-style SYN RTT probes ({@link io.ackscope.probe.SynProber}), TCP
 * traceroute ({@link io.ackscope.probe.TcpTracer}), tcpdump-style capture to pcap
 * ({@link io.ackscope.probe.LiveCapture}), and a {@code connect()} fallback without root
 * ({@link io.ackscope.probe.ConnectProber}).
 *
 * <p>RTTs are differences of capture timestamps of the probe's own frame and its answer, so they match what tshark
 * computes from a capture taken at the same time. pcap4j is used where libpcap is the point (injection, BPF, live
 * capture), never on the batch read path.
 *
 * <p>Received frames are decoded by {@code decode}'s {@code PacketDecoder}; {@code ProbeBook} matches them to
 * probes. Uses {@code decode} and {@code capture} only.
 */
package io.ackscope.probe;
