package io.ackscope.tables;

import java.util.List;

import static io.ackscope.tables.ColumnType.INT;
import static io.ackscope.tables.ColumnType.LONG;
import static io.ackscope.tables.ColumnType.STRING;
import static io.ackscope.tables.ColumnType.TIMESTAMP;

/**
 * The {@code load_requests} table that {@code ackscope load --out FILE.parquet} writes: one row per request, in the
 * vocabulary of the analyze tables ({@code *_time} instants as timestamps, {@code *_us} durations, {@code *_bytes}),
 * so a load run joins the capture taken during it on the client port and time. Documented in
 * {@code docs/load_requests.md}.
 */
public final class LoadRequestsTable {
    private LoadRequestsTable() {
    }

    public static final TableSchema TABLE = new TableSchema("load_requests",
            "One row per request of a load run that finished during it.",
            List.of(new Column("request_index", LONG, false, "", "0-based row number, unique within the file."),
                    new Column("thread", INT, false, "", "Load thread (0-based) that sent the request."),
                    new Column("connection", INT, false, "", "Run-wide number of the TCP connection."),
                    new Column("local_port", INT, false, "", "Client port of that connection."),
                    new Column("seq_on_connection", INT, false, "", "0 for the first request on its connection."),
                    new Column("intended_start_time", TIMESTAMP, false, "", "When it should have been sent."),
                    new Column("start_time", TIMESTAMP, false, "", "When it was written to the socket."),
                    new Column("end_time", TIMESTAMP, false, "", "When its response (or failure) was complete."),
                    new Column("latency_us", LONG, false, "µs", "end - start."),
                    new Column("corrected_latency_us", LONG, false, "µs", "end - intended start (wrk2)."),
                    new Column("http_status", INT, false, "", "HTTP status of the final response; 0 if none."),
                    new Column("response_bytes", LONG, false, "bytes", "Bytes of the response read."),
                    new Column("error", STRING, true, "", "Null, or timeout, read, write, parse.")));
}
