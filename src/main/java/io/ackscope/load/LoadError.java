package io.ackscope.load;

/**
 * Why a connection or a request failed, counted per kind (as wrk does) instead of thrown. A response with a status
 * outside 2xx/3xx is not a failure of the request; it is counted apart, as wrk's "Non-2xx or 3xx responses".
 */
public enum LoadError {
    /** The connection was refused, unreachable, or not established within the timeout. No request is lost. */
    CONNECT("connect"),
    /** Reading failed, or the server closed the connection before the response was complete. */
    READ("read"),
    /** Writing the request failed. */
    WRITE("write"),
    /** No complete response within the timeout; the connection is closed and opened again. */
    TIMEOUT("timeout"),
    /** The response could not be framed ({@link HttpParser.Malformed}), or bytes came that nobody asked for. */
    PARSE("parse");

    private static final LoadError[] VALUES = values();

    private final String label;

    LoadError(String label) {
        this.label = label;
    }

    /** Lower-case name used in the summary, the JSON output and the Parquet {@code error} column. */
    public String label() {
        return label;
    }

    /** The kind stored as {@code code} in a {@link RequestLog}; -1 means none. */
    static LoadError ofCode(int code) {
        return code < 0 ? null : VALUES[code];
    }
}
