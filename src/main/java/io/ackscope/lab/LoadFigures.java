package io.ackscope.lab;

import com.fasterxml.jackson.databind.JsonNode;
import io.ackscope.json.Json;

import java.io.IOException;

/**
 * What {@code ackscope load --json} reported for one configuration (latencies in microseconds).
 *
 * @param requests       responses received and measured
 * @param errors         failed requests (connect, read, write, timeout, parse) plus non-2xx/3xx responses
 * @param requestsPerSec measured requests over the elapsed time
 */
public record LoadFigures(long requests, long errors, double requestsPerSec, long p50Micros, long p90Micros,
                          long p99Micros, long maxMicros) {

    /** Reads the JSON object that {@code load --json} prints as its last line. */
    static LoadFigures parse(String output) throws IOException {
        String text = output.strip();
        int start = text.lastIndexOf("\n{");
        JsonNode root = Json.MAPPER.readTree(start < 0 ? text : text.substring(start + 1));
        JsonNode lat = root.path("latency_us");
        JsonNode err = root.path("errors");
        long errors = 0;
        for (String kind : new String[] {"connect", "read", "write", "timeout", "parse", "status"}) {
            errors += required(err, kind).asLong();
        }
        return new LoadFigures(required(root, "requests").asLong(), errors,
                required(root, "requests_per_sec").asDouble(), required(lat, "p50").asLong(),
                required(lat, "p90").asLong(), required(lat, "p99").asLong(), required(lat, "max").asLong());
    }

    private static JsonNode required(JsonNode node, String field) throws IOException {
        JsonNode v = node.get(field);
        if (v == null || !v.isNumber()) {
            throw new IOException("ackscope load --json printed no number \"" + field + "\"");
        }
        return v;
    }

    public double p50Millis() {
        return p50Micros / 1000.0;
    }

    public double p99Millis() {
        return p99Micros / 1000.0;
    }
}
