"""Writes the analyst notebooks from the cells below, so that they review as plain Python:

    python3 make_notebook.py        # rewrites postmortem.ipynb and before-after.ipynb, without outputs

Rules the tests rely on (NotebooksTest): every query is a literal `con.sql(\"\"\"...\"\"\")` (no f-strings), so
`mvn verify` runs each one through DuckDB's JDBC driver and a renamed column fails the build; percentiles are
`quantile_disc`, the nearest-rank definition the tables use (`latency_summary`, `diagnose`, the report); the last
cell prints one JSON line of key figures that the test compares with the tables.
"""
import json

SETUP = """import json
import os

import duckdb
import matplotlib
import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import pandas as pd

from ackscope_output import complete_tables

pd.set_option("display.max_columns", None)
pd.set_option("display.width", 200)
pd.set_option("display.max_colwidth", 60)


def time_axis(ax):
    \"\"\"Wall-clock labels on a time x axis, as few and as short as the span needs (no overlapping labels).\"\"\"
    locator = mdates.AutoDateLocator(minticks=3, maxticks=7)
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))


def break_gaps(d, col, step):
    \"\"\"`d` sorted by its time column `col`, with an empty row inside every gap longer than `step`, so that a
    line drawn through it breaks there instead of joining points hours apart.\"\"\"
    d = d.sort_values(col)
    t = pd.to_datetime(d[col])
    gaps = t.diff() > step
    if not gaps.any():
        return d
    filler = pd.DataFrame({col: (t[gaps] - step / 2).reset_index(drop=True)})   # keeps the time zone
    return pd.concat([d, filler], ignore_index=True).sort_values(col)


def open_output(con, out, schema="main"):
    \"\"\"Registers every table of the complete ackscope output `out` as a view in `schema`.

    Every Parquet file below a table's directory: flat (schema versions up to 3) or partitioned by source and
    date (`source=.../date=.../`, version 4), the partitions as columns (`date` a DATE; `WHERE source = ... AND
    date >= ...` reads only those directories).\"\"\"
    con.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
    for table, path in complete_tables(out).items():
        glob = f"{path}/**/*.parquet".replace("'", "''")
        con.execute(f"CREATE OR REPLACE VIEW {schema}.{table} AS SELECT * FROM "
                    f"read_parquet('{glob}', hive_partitioning = true, union_by_name = true)")
"""

POSTMORTEM = [
("md", """# Postmortem: where did the time go?

Reads the Parquet tables of `ackscope analyze INPUT... --out DIR` (schemas and units:
[`docs/schema.md`](../docs/schema.md)) with DuckDB, pandas and matplotlib; no Spark. Set `OUT` below to the output
directory, e.g. of the README's main job:

```sh
jobs/ackscope analyze sample-pcaps/nginx-nodelay-off.pcap.gz --out out/nginx --overwrite
```

Percentiles are nearest-rank (`quantile_disc`), as in the tables, `diagnose` and the report. Tables join on
`uid`, the connection's key, the same in every run over the same capture (`stream` numbers are per run and source)."""),
("code", """import os
OUT = os.environ.get("ACKSCOPE_OUT", "../out/nginx")   # the --out directory of ackscope analyze"""),
("code", SETUP + """
con = duckdb.connect()
con.execute("SET TimeZone = 'UTC'")
open_output(con, OUT)"""),
("md", """## 1. What the numbers rest on

Every frame read is accounted for: `frames = tcp_frames + skipped_frames`. A damaged file carries the byte offset
of the damage; the sources say which capture points there are."""),
("code", """files = con.sql(\"\"\"
    SELECT source, file, format, frames, tcp_frames, skipped_frames, frames_truncated, frames_malformed,
           first_time, last_time, error_offset, error
    FROM capture_files ORDER BY source, file_index\"\"\").df()
assert (files.frames == files.tcp_frames + files.skipped_frames).all()
files"""),
("md", """## 2. Which endpoints are slow, and why

Per capture source and server endpoint: requests, response time percentiles, and the share of response time spent
in Nagle × delayed-ACK stalls (`stall_us`: all of a request's stall time, before and after its first response
byte, which `stall_before_response_us` and `stall_in_response_us` split)."""),
("code", """endpoints = con.sql(\"\"\"
    SELECT e.source, c.server_ip, c.server_port, count(*) AS requests,
           quantile_disc(e.complete_us, 0.5) AS p50_us, quantile_disc(e.complete_us, 0.99) AS p99_us,
           sum(e.complete_us) AS response_us,
           sum(e.stall_us) AS stalled_us, round(sum(e.stall_us) / sum(e.complete_us), 4) AS stall_share,
           count(*) FILTER (WHERE e.stall_us > 0) AS stalled_requests
    FROM exchanges e JOIN connections c USING (uid)
    WHERE e.complete_us IS NOT NULL
    GROUP BY ALL ORDER BY response_us DESC\"\"\").df()
endpoints"""),
("code", """fig, ax = plt.subplots(figsize=(8, 3))
labels = endpoints.source + " " + endpoints.server_ip + ":" + endpoints.server_port.astype(str)
ax.barh(labels, endpoints.p99_us / 1000, label="p99", color="#d62728")
ax.barh(labels, endpoints.p50_us / 1000, label="p50", color="#1f77b4")
if endpoints.p99_us.max() > 100 * endpoints.p50_us.clip(lower=1).min():
    ax.set_xscale("log")   # endpoints orders of magnitude apart: a linear axis would hide the fast ones
ax.set_xlabel("response time (ms)")
ax.set_title("Response time per server endpoint")
ax.legend()
plt.show()"""),
("md", """## 3. ACK delay per host, with the delayed-ACK timers marked

Who held its ACKs, and for how long: 40 ms is the Linux/FreeBSD delayed-ACK timer (40-48 ms on a 250 Hz kernel),
200 ms the Windows timer and Linux's maximum. `method` DIRECT means the capture was taken at the acking host."""),
("code", """acks = con.sql(\"\"\"
    SELECT source, acking_ip, acking_side, ack_class, method, ack_delay_us
    FROM ack_delays\"\"\").df()
per_host = con.sql(\"\"\"
    SELECT source, acking_ip, acking_side, count(*) AS acks, quantile_disc(ack_delay_us, 0.5) AS p50_us,
           quantile_disc(ack_delay_us, 0.99) AS p99_us,
           count(*) FILTER (WHERE ack_class = 'DELAYED_40MS') AS delayed_40ms,
           count(*) FILTER (WHERE ack_class = 'DELAYED_200MS') AS delayed_200ms
    FROM ack_delays
    GROUP BY ALL ORDER BY acks DESC\"\"\").df()
per_host"""),
("code", """fig, ax = plt.subplots(figsize=(8, 3))
bins = [10 ** (k / 10) for k in range(0, 61)]   # 1 µs to 1 s, log-spaced
for (host, side), d in acks.groupby(["acking_ip", "acking_side"]):
    ax.hist(d.ack_delay_us.clip(lower=1), bins=bins, histtype="step", label=f"{host} ({side.lower()})")
for timer_us, name in [(40_000, "40 ms"), (200_000, "200 ms")]:
    ax.axvline(timer_us, color="grey", linestyle="--")
    ax.text(timer_us, ax.get_ylim()[1] * 0.9, " " + name, color="grey")
ax.set_xscale("log")
ax.set_xlabel("ACK delay (µs)")
ax.set_ylabel("ACKs")
ax.set_title("ACK delay per acking host")
ax.legend(fontsize="small")
plt.show()"""),
("md", """## 4. Latency over the incident window

Requests per second and their response time, in one-second buckets from the first to the last request."""),
("code", """over_time = con.sql(\"\"\"
    SELECT time_bucket(INTERVAL 1 second, request_start_time) AS second, count(*) AS requests,
           quantile_disc(complete_us, 0.5) AS p50_us, quantile_disc(complete_us, 0.99) AS p99_us
    FROM exchanges WHERE complete_us IS NOT NULL GROUP BY ALL ORDER BY second\"\"\").df()
fig, ax = plt.subplots(figsize=(8, 3))
line = break_gaps(over_time, "second", pd.Timedelta(seconds=1))
ax.plot(line.second, line.p50_us / 1000, marker="o", label="p50")
ax.plot(line.second, line.p99_us / 1000, marker="o", label="p99")
if over_time.p99_us.max() > 100 * over_time.p50_us.clip(lower=1).min():
    ax.set_yscale("log")   # seconds-long outliers beside sub-millisecond responses
time_axis(ax)
ax.set_ylabel("response time (ms)")
ax.set_title("Response time over time")
ax.legend()
plt.show()
over_time"""),
("md", """## 5. Retransmissions, timeouts and zero windows over time

Retransmission timeouts and zero-window waits are in `latency_events`, stalls in `stalls`; the per-connection
retransmission counts in `connections` say where loss happened."""),
("code", """events = con.sql(\"\"\"
    SELECT time_bucket(INTERVAL 1 second, start_time) AS second, kind, count(*) AS n,
           sum(duration_us) AS waited_us
    FROM (SELECT start_time, kind, duration_us FROM latency_events
          UNION ALL SELECT held_time AS start_time, 'STALL' AS kind, duration_us FROM stalls)
    GROUP BY ALL ORDER BY second, kind\"\"\").df()
loss = con.sql(\"\"\"
    SELECT source, server_ip, server_port,
           sum(client_retransmissions + client_fast_retransmissions) AS client_retransmissions,
           sum(server_retransmissions + server_fast_retransmissions) AS server_retransmissions,
           sum(client_zero_windows) AS client_zero_windows, sum(server_zero_windows) AS server_zero_windows,
           sum(rto_events) AS rto_events
    FROM connections GROUP BY ALL
    ORDER BY sum(client_retransmissions + client_fast_retransmissions + server_retransmissions
                 + server_fast_retransmissions) DESC\"\"\").df()
fig, ax = plt.subplots(figsize=(8, 3))
for kind, d in events.groupby("kind"):
    d = break_gaps(d, "second", pd.Timedelta(seconds=1))
    ax.plot(d.second, d.n, marker="o", label=kind)
time_axis(ax)
ax.set_ylabel("events per second")
ax.set_title("Stalls, timeouts and zero-window waits over time")
ax.legend()
plt.show()
loss"""),
("md", """## 6. The slowest requests, with their evidence

HTTP fields come from the capture: untrusted text, bounded in length. The evidence is the stall inside the
request's time, with the frames that prove it (open them in Wireshark with `frame.number == N`)."""),
("code", """con.sql(\"\"\"
    SELECT e.source, e.stream, e.exchange_index, e.request_start_time, e.complete_us, e.ttfb_us,
           e.stall_us, e.stall_in_response_us, e.http_method, e.http_target, e.http_status,
           s.held_frame, s.ack_frame, s.resume_frame, s.evidence
    FROM exchanges e
    LEFT JOIN stalls s ON s.uid = e.uid
         AND s.held_time BETWEEN e.request_start_time AND coalesce(e.response_last_time, e.request_end_time)
    ORDER BY e.complete_us DESC NULLS LAST LIMIT 10\"\"\").df()"""),
("md", """## Key figures

One line of JSON, for scripts (and for the test that runs this notebook)."""),
("code", """first_vs_rest = con.sql(\"\"\"
    SELECT exchange_index > 0 AS after_first, count(*) AS requests,
           quantile_disc(complete_us, 0.5) AS p50_us,
           count(*) FILTER (WHERE stall_us > 0) AS stalled
    FROM exchanges WHERE complete_us IS NOT NULL GROUP BY ALL ORDER BY after_first\"\"\").df()
rest = first_vs_rest[first_vs_rest.after_first]
print(json.dumps({
    "requests": int(endpoints.requests.sum()),
    "stalled_requests": int(endpoints.stalled_requests.sum()),
    "after_first_requests": int(rest.requests.sum()),
    "after_first_p50_us": int(rest.p50_us.iloc[0]) if len(rest) else None,
    "delayed_40ms_acks": int(per_host.delayed_40ms.sum()),
    "plots": 4,
}))"""),
]

BEFORE_AFTER = [
("md", """# Before and after: did the fix work?

Compares two `ackscope analyze` outputs, e.g. the same service before and after a fix (`TCP_NODELAY`, or the
client's `TCP_QUICKACK`). The sample pair is nginx with `tcp_nodelay off` (before) and `on` (after):

```sh
jobs/ackscope analyze sample-pcaps/nginx-nodelay-off.pcap.gz --out out/before --overwrite
jobs/ackscope analyze sample-pcaps/nginx-nodelay-on.pcap.gz --out out/after --overwrite
```

Percentiles are nearest-rank (`quantile_disc`), as in the tables."""),
("code", """import os
BEFORE = os.environ.get("ACKSCOPE_BEFORE", "../out/before")   # output before the change
AFTER = os.environ.get("ACKSCOPE_AFTER", "../out/after")      # output after it"""),
("code", SETUP + """
con = duckdb.connect()
con.execute("SET TimeZone = 'UTC'")
open_output(con, BEFORE, "before")
open_output(con, AFTER, "after")"""),
("md", """## 1. Per endpoint, before and after"""),
("code", """compare = con.sql(\"\"\"
    SELECT 'before' AS run, c.server_ip, c.server_port, count(*) AS requests,
           quantile_disc(e.complete_us, 0.5) AS p50_us, quantile_disc(e.complete_us, 0.99) AS p99_us,
           count(*) FILTER (WHERE e.stall_us > 0) AS stalled
    FROM before.exchanges e JOIN before.connections c USING (uid)
    WHERE e.complete_us IS NOT NULL GROUP BY ALL
    UNION ALL
    SELECT 'after' AS run, c.server_ip, c.server_port, count(*) AS requests,
           quantile_disc(e.complete_us, 0.5) AS p50_us, quantile_disc(e.complete_us, 0.99) AS p99_us,
           count(*) FILTER (WHERE e.stall_us > 0) AS stalled
    FROM after.exchanges e JOIN after.connections c USING (uid)
    WHERE e.complete_us IS NOT NULL GROUP BY ALL
    ORDER BY server_ip, server_port, run DESC\"\"\").df()
compare"""),
("md", """## 2. The response-time distributions (CDF), with the 40 ms timer marked"""),
("code", """samples = con.sql(\"\"\"
    SELECT 'before' AS run, complete_us FROM before.exchanges WHERE complete_us IS NOT NULL
    UNION ALL
    SELECT 'after' AS run, complete_us FROM after.exchanges WHERE complete_us IS NOT NULL\"\"\").df()
fig, ax = plt.subplots(figsize=(8, 3))
for run, d in samples.groupby("run"):
    v = d.complete_us.sort_values().to_numpy()
    ax.step(v / 1000, [(i + 1) / len(v) for i in range(len(v))], where="post", label=run)
ax.axvline(40, color="grey", linestyle="--")
ax.text(40, 0.05, " 40 ms", color="grey")
ax.set_xscale("log")
ax.set_xlabel("response time (ms)")
ax.set_ylabel("fraction of requests")
ax.set_title("Response time before and after")
ax.legend()
plt.show()"""),
("md", """## Key figures"""),
("code", """by_run = compare.set_index("run")
print(json.dumps({
    "before_p50_us": int(by_run.loc["before", "p50_us"]),
    "after_p50_us": int(by_run.loc["after", "p50_us"]),
    "before_stalled": int(by_run.loc["before", "stalled"]),
    "after_stalled": int(by_run.loc["after", "stalled"]),
    "plots": 1,
}))"""),
]


def cell(index, kind, text):
    lines = text.splitlines(keepends=True)
    c = {"id": f"cell-{index:02d}", "metadata": {}, "source": lines}
    if kind == "md":
        c["cell_type"] = "markdown"
    else:
        c.update({"cell_type": "code", "execution_count": None, "outputs": []})
    return c


def write(name, cells):
    nb = {"cells": [cell(i, k, t) for i, (k, t) in enumerate(cells)],
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                       "language_info": {"name": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    with open(name, "w") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    write("postmortem.ipynb", POSTMORTEM)
    write("before-after.ipynb", BEFORE_AFTER)
