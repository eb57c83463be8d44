package io.ackscope.fields;

import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.FrameAnalysis;

import java.util.ArrayList;
import java.util.BitSet;

/**
 * The {@code http.*} fields of each frame, as tshark 4.0 shows them in one pass with its defaults: a message's
 * fields appear on the frame that completes it ({@link HttpDirection}), the first message's when a frame completes
 * several ({@code -E occurrence=f}). As in tshark 4.0, a response answers the latest request of its TCP stream if
 * no response has answered it yet ({@code http.request_in}, {@code http.time}), and carries that latest request's
 * URI ({@code http.response_for.uri}) either way; with pipelined requests the older ones are never answered.
 *
 * <p>Which connections are HTTP: those with a port of tshark's HTTP port table ({@link #PORTS}), and, as tshark's
 * heuristic dissector claims them, others (both ports from {@link #HEURISTIC_PORTS} up) from the first segment
 * whose first line is complete and starts or ends with {@code HTTP/1.} ({@link HttpHead#heuristicStart}). Bytes
 * that start no message on a connection that has had a request make the frame HTTP with no fields (tshark's
 * "Continuation") once their first line is complete.
 *
 * <p>Which segments are read, as tshark's TCP layer hands them to HTTP: not a plain retransmission nor an
 * out-of-order segment (a fast or spurious retransmission is); of the others only bytes not seen before. A gap in
 * the sequence numbers inside a body of known length leaves the message incomplete for good (tshark's reassembly
 * keeps the hole), elsewhere it drops the message. A segment cut short by the snapshot length cannot be reassembled:
 * it breaks the message it belongs to and is read alone, a head it starts shown with what was captured.
 *
 * <p>Per open connection it keeps two {@link HttpDirection}s and the latest request, released when the connection
 * closes (a FIN each way; data still follows a RST); it allocates once per connection and per message, never per
 * frame.
 */
public final class HttpConversations {
    /** TCP ports tshark 4.0 gives its HTTP dissector ({@code tshark -G decodes}). */
    static final int[] PORTS = {80, 631, 1900, 2710, 2869, 3128, 3132, 3689, 5985, 8080, 8088, 11371};
    /**
     * The heuristic claims only connections whose ports are both at least this: tshark tries its heuristic
     * dissectors after the port table, which gives most ports below it to other dissectors (22 to SSH ...).
     */
    static final int HEURISTIC_PORTS = 1024;

    private static final byte[] HTTP_SCHEME = {'h', 't', 't', 'p', ':', '/', '/'};

    /** A connection's latest request: its frame and time, whether it was a HEAD, its response_for.uri. */
    private record Request(long frame, long nanos, boolean head, byte[] uriForResponse) {
    }

    /** One TCP stream's state. */
    private static final class Conversation implements HttpDirection.Sink {
        final HttpDirection[] directions = {new HttpDirection(), new HttpDirection()};
        /** The latest request, and whether a response has answered it. */
        Request last;
        boolean answered;
        boolean http;
        /** Whether the heuristic may claim the connection: no port of it is one tshark gives another dissector. */
        boolean heuristic;
        /** Whether a request completed: only then are bytes that start no message HTTP to tshark. */
        boolean seenRequest;
        /** The tracker whose current frame the sink calls report to. */
        HttpConversations owner;

        @Override
        public void complete(HttpHead h) {
            seenRequest |= h.kind != HttpHead.Kind.RESPONSE;
            owner.message(this, h);
        }

        @Override
        public void continuation() {
            if (seenRequest) {
                owner.shown = true;
            }
        }

        @Override
        public boolean answersHead() {
            return last != null && last.head(); // tshark asks the latest request, answered or not
        }
    }

    /** Whether the connection of each {@code tcp.stream} was seen (its state may since have been released). */
    private final BitSet openedBits = new BitSet();
    /** By {@code tcp.stream}, which numbers connections densely from 0; null once a connection is closed. */
    private final ArrayList<Conversation> conversations = new ArrayList<>();

    // the current frame's fields
    private long frameNumber;
    private long frameNanos;
    private boolean shown;
    private HttpHead head;
    private long requestIn;
    private long timeNanos;
    private byte[] responseForUri;

    /** Reads the current frame: its decoding and the engine's analysis of it (null when it has none). */
    public void frame(PacketDecoder d, FrameAnalysis a, byte[] data, long number, long nanos) {
        shown = false;
        head = null;
        requestIn = -1;
        responseForUri = null;
        frameNumber = number;
        frameNanos = nanos;
        if (a == null || !d.hasTcp()) {
            return;
        }
        if (a.stream >= Integer.MAX_VALUE) {
            return;
        }
        int stream = (int) a.stream;
        while (conversations.size() <= stream) {
            conversations.add(null);
        }
        Conversation c = conversations.get(stream);
        if (c == null) {
            if (openedBits.get(stream)) {
                return; // closed: its state was released
            }
            c = new Conversation();
            c.owner = this;
            c.http = httpPort(d.srcPort()) || httpPort(d.dstPort());
            c.heuristic = !c.http && Math.min(d.srcPort(), d.dstPort()) >= HEURISTIC_PORTS;
            conversations.set(stream, c);
            openedBits.set(stream);
        }
        int flags = d.tcpFlags();
        HttpDirection dir = c.directions[a.fromOriginator ? 0 : 1];
        int payload = d.payloadLength();
        int off = d.payloadOffset();
        int captured = d.capturedPayloadLength();
        if (a.has(FrameAnalysis.RETRANSMISSION) || a.has(FrameAnalysis.OUT_OF_ORDER)) {
            // tshark passes neither a plain retransmission nor an out-of-order segment to HTTP (a fast or spurious
            // retransmission it does)
        } else if (payload > 0 && captured < payload) {
            // cut short by the snapshot length: tshark cannot add it to a message being reassembled (which then
            // never completes) and reads its bytes alone, without checking whether they were seen before: a head
            // they start, or a continuation
            if (c.http) {
                long end = a.relativeSeq + ((flags & 0x02) != 0 ? 1 : 0) + payload;
                if (dir.pending() && end > dir.next) {
                    dir.gap(end - dir.next);
                }
                if (HttpHead.startKind(data, off, off + captured) != HttpHead.Kind.NONE) {
                    c.complete(HttpHead.parse(java.util.Arrays.copyOfRange(data, off, off + captured), captured));
                } else {
                    c.continuation();
                }
                dir.next = Math.max(dir.next, end);
            }
        } else if (payload > 0) {
            if (!c.http && c.heuristic && HttpHead.heuristicStart(data, off, off + payload)) {
                c.http = true; // the heuristic: the connection is HTTP from here on
            }
            if (c.http) {
                long seq = a.relativeSeq + ((flags & 0x02) != 0 ? 1 : 0);
                long end = seq + payload;
                if (dir.next < 0 || end > dir.next) {
                    int skip = 0;
                    if (dir.next >= 0 && seq < dir.next) {
                        skip = (int) (dir.next - seq); // the bytes seen before are not read again
                    } else if (dir.next >= 0 && seq > dir.next) {
                        dir.gap(seq - dir.next);
                    }
                    dir.next = end;
                    dir.feed(data, off + skip, off + payload, c);
                }
            }
        }
        if ((flags & 0x01) != 0 && c.http) {
            dir.fin(c);
        }
        if ((flags & 0x01) != 0) {
            dir.finished = true;
        }
        if (c.directions[0].finished && c.directions[1].finished) {
            conversations.set(stream, null); // closed: later frames of it (ACKs, retransmitted FINs) carry no HTTP
        }
    }

    private void message(Conversation c, HttpHead h) {
        shown = true;
        Request last = c.last;
        if (h.kind == HttpHead.Kind.RESPONSE) {
            if (head == null) {
                head = h;
                if (last != null && !c.answered) {
                    requestIn = last.frame();
                    timeNanos = frameNanos - last.nanos();
                }
                responseForUri = last == null ? null : last.uriForResponse();
            }
            c.answered = true;
            return;
        }
        c.last = new Request(frameNumber, frameNanos, equals(h.method, "HEAD"), uriForResponse(h));
        c.answered = false;
        if (head == null) {
            head = h;
        }
    }

    /** tshark's {@code http.response_for.uri}: the URI, behind {@code http://} and the Host unless CONNECT. */
    private static byte[] uriForResponse(HttpHead h) {
        if (h.host == null || equals(h.method, "CONNECT")) {
            return h.uri;
        }
        int from = 0;
        int to = h.host.length;
        while (from < to && isBlank(h.host[from])) {
            from++;
        }
        while (to > from && isBlank(h.host[to - 1])) {
            to--;
        }
        byte[] u = new byte[HTTP_SCHEME.length + (to - from) + h.uri.length];
        System.arraycopy(HTTP_SCHEME, 0, u, 0, HTTP_SCHEME.length);
        System.arraycopy(h.host, from, u, HTTP_SCHEME.length, to - from);
        System.arraycopy(h.uri, 0, u, HTTP_SCHEME.length + to - from, h.uri.length);
        return u;
    }

    private static boolean isBlank(byte c) {
        return c == ' ' || c == '\t';
    }

    private static boolean equals(byte[] b, String s) {
        if (b == null || b.length != s.length()) {
            return false;
        }
        for (int i = 0; i < b.length; i++) {
            if (b[i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    static boolean httpPort(int port) {
        for (int p : PORTS) {
            if (p == port) {
                return true;
            }
        }
        return false;
    }

    /** Whether tshark shows HTTP in the current frame (the {@code http} protocol filter). */
    public boolean shown() {
        return shown;
    }

    /** The message whose fields the current frame shows, or null. */
    HttpHead head() {
        return head;
    }

    /** Frame of the request the current frame's response answers, -1 if none. */
    long requestIn() {
        return requestIn;
    }

    /** Nanoseconds from that request's frame to this one (valid when {@link #requestIn} is not -1). */
    long timeNanos() {
        return timeNanos;
    }

    /** The answered request's {@code http.response_for.uri}, or null. */
    byte[] responseForUri() {
        return responseForUri;
    }
}
