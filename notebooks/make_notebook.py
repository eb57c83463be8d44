"""Writes latency-tables.ipynb from the cells below (keeps the notebook reviewable as plain Python)."""
import json

CELLS = [
("md", """# ackscope tables: where does the latency come from?

This notebook reads the Parquet tables that `ackscope analyze INPUT... --out DIR` writes (schemas and units in
[`docs/schema.md`](../docs/schema.md)) with [DuckDB](https://duckdb.org) and pandas. It needs only
`pip install duckdb pandas`; no Spark. Set `OUT` to the analysis directory, e.g. the README's main job:

```sh
jobs/ackscope analyze sample-pcaps/nginx-nodelay-off.pcap.gz --out out/nginx --overwrite
```
"""),
("code", """import os
import duckdb
import pandas as pd

from ackscope_output import complete_tables

OUT = os.environ.get("ACKSCOPE_OUT", "../out/nginx")   # the --out directory of ackscope analyze
TABLES = complete_tables(OUT)   # only a complete output: its _SUCCESS names the tables, each is there

con = duckdb.connect()
for table in ["capture_files", "connections", "rtt_samples", "ack_delays", "stalls", "exchanges",
              "latency_events", "latency_summary"]:
    con.execute(f"CREATE VIEW {table} AS SELECT * FROM read_parquet('{TABLES[table]}/*.parquet')")
pd.set_option("display.width", 160)"""),
("md", """## 1. What the numbers rest on

Every frame read is accounted for: `frames = tcp_frames + skipped_frames`. Damaged files carry the byte offset of
the damage."""),
("code", """files = con.sql(\"\"\"
    SELECT file, format, read_mode, frames, tcp_frames, skipped_frames, frames_truncated, frames_malformed,
           first_timestamp, last_timestamp, error_offset, error
    FROM capture_files ORDER BY file_index\"\"\").df()
assert (files.frames == files.tcp_frames + files.skipped_frames).all()
files"""),
("md", """## 2. Per server endpoint: latency percentiles (µs)"""),
("code", """con.sql(\"\"\"
    SELECT server_ip, server_port, connections, exchanges, stalls,
           round(100.0 * stalls / nullif(exchanges, 0), 1)        AS stalled_pct,
           ttfb_p50_us, ttfb_p99_us, data_rtt_p50_us, data_rtt_p99_us,
           ack_delay_p50_us, ack_delay_p90_us, ack_delay_p99_us, handshake_rtt_p50_us
    FROM latency_summary ORDER BY exchanges DESC\"\"\").df()"""),
("md", """## 3. ACK delays by class and acking side

`delayed_40ms` is the Linux/FreeBSD delayed-ACK timer band (40-48 ms on a 250 Hz kernel); `delayed_200ms` the
Windows / Linux maximum. `method` says whether the delay was measured directly (capture near the acking host) or
estimated by subtracting the path RTT."""),
("code", """con.sql(\"\"\"
    SELECT acking_side, ack_class, method, count(*) AS acks,
           quantile_cont(ack_delay_us, 0.5) AS p50_us, max(ack_delay_us) AS max_us
    FROM ack_delays GROUP BY ALL ORDER BY acks DESC\"\"\").df()"""),
("md", """## 4. Stalls: which connections, how often, who held and who delayed"""),
("code", """stalls = con.sql(\"\"\"
    SELECT c.client_ip, c.client_port, c.server_ip, c.server_port, s.stream,
           count(*) AS stalls, sum(s.duration_us) / 1000.0 AS stalled_ms,
           median(s.ack_delay_us) AS median_ack_delay_us,
           any_value(s.holding_side) AS holding_side, any_value(s.delaying_side) AS delaying_side
    FROM stalls s JOIN connections c USING (stream)
    GROUP BY ALL ORDER BY stalled_ms DESC LIMIT 20\"\"\").df()
stalls"""),
("md", """## 5. Is it the first request on a connection or the ones after it?

The Nagle × delayed-ACK stall hits requests *after the first* on a keep-alive connection: Linux starts a connection
in quick-ACK mode. `stall_us` is stall time before the first response byte, `response_stall_us` after it (the
seed case: the header leaves at once, the body waits for the delayed ACK)."""),
("code", """con.sql(\"\"\"
    SELECT exchange_index = 0 AS first_on_connection, count(*) AS requests,
           quantile_cont(complete_us, 0.5) AS response_p50_us,
           quantile_cont(complete_us, 0.99) AS response_p99_us,
           round(100.0 * count(*) FILTER (WHERE coalesce(stall_us, 0) + coalesce(response_stall_us, 0) > 0) / count(*), 1) AS stalled_pct
    FROM exchanges GROUP BY ALL ORDER BY first_on_connection DESC\"\"\").df()"""),
("md", """## 6. Latency over time (1-second buckets), to see an incident"""),
("code", """con.sql(\"\"\"
    SELECT time_bucket(INTERVAL 1 second, request_start) AS second, count(*) AS requests,
           quantile_cont(complete_us, 0.5) AS p50_us, quantile_cont(complete_us, 0.99) AS p99_us
    FROM exchanges GROUP BY ALL ORDER BY second\"\"\").df()"""),
("md", """## 7. Slowest requests (HTTP fields are taken from the capture: untrusted text, bounded in length)"""),
("code", """con.sql(\"\"\"
    SELECT stream, exchange_index, request_start, complete_us, ttfb_us, response_stall_us,
           http_method, http_target, http_host, http_status
    FROM exchanges ORDER BY complete_us DESC NULLS LAST LIMIT 10\"\"\").df()"""),
]


def cell(kind, text):
    lines = text.splitlines(keepends=True)
    if kind == "md":
        return {"cell_type": "markdown", "metadata": {}, "source": lines}
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": lines}


nb = {"cells": [cell(k, t) for k, t in CELLS],
      "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                   "language_info": {"name": "python"}},
      "nbformat": 4, "nbformat_minor": 5}
with open("latency-tables.ipynb", "w") as f:
    json.dump(nb, f, indent=1)
    f.write("\n")
