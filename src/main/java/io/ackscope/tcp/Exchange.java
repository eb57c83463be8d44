package io.ackscope.tcp;

/**
 * One request/response exchange: a burst of originator (client) data, then the responder's (server's) data.
 * Times are epoch nanoseconds, durations nanoseconds; -1 means absent. HTTP fields are null unless the first
 * segment's captured payload parsed as HTTP/1.x; they are bounded in length and may hold any printable text
 * from the capture (escape before display).
 *
 * <p>Time to first byte is split so that {@code ttfbNanos = networkNanos + serverNanos + stallNanos}:
 * {@code networkNanos} is the path RTT from the capture point to the server (its handshake leg, or the smallest
 * RTT sample when the handshake is missing), {@code stallNanos} the part of stalls that fell before the first
 * response byte, and {@code serverNanos} the rest (server think time plus request transmission).
 *
 * @param connection         the connection
 * @param index              0-based position of the exchange in its connection
 * @param requestStartNanos  first request segment
 * @param requestEndNanos    last request segment before the response
 * @param responseFirstNanos first response segment, -1 if none was captured
 * @param responseLastNanos  last response segment before the next request or the end
 * @param requestBytes       request payload bytes
 * @param responseBytes      response payload bytes
 * @param ttfbNanos          responseFirst - requestStart
 * @param networkNanos       part of ttfb that is network round trip
 * @param serverNanos        part of ttfb that is the server
 * @param stallNanos         part of ttfb spent in stalls
 * @param responseStallNanos stall time after the first response byte, until the last
 * @param completeNanos      responseLast - requestStart
 * @param httpMethod         HTTP request method, or null
 * @param httpTarget         HTTP request target, or null
 * @param httpHost           HTTP Host header value, or null
 * @param httpStatus         HTTP response status code, or -1
 */
public record Exchange(ConnectionId connection, int index, long requestStartNanos, long requestEndNanos,
                       long responseFirstNanos, long responseLastNanos, long requestBytes, long responseBytes,
                       long ttfbNanos, long networkNanos, long serverNanos, long stallNanos, long responseStallNanos,
                       long completeNanos, String httpMethod, String httpTarget, String httpHost, int httpStatus) {
}
