#!/usr/bin/env bash
# TCP engine benchmark (issue 3): memory against open connections on a long capture, and single-core throughput
# in the same run as tshark and tcptrace. Not a test. Run as root (tcpdump, nginx):
#   bench/engine-bench.sh [TARGET_MB]        (default 300; the capture is made in a temp dir and deleted)
# KEEP=1 keeps the capture and prints its path. CAPTURE=/path/file.pcap skips making one.
# SKIP_PEERS=1 runs only the engine (no tshark, no tcptrace).
# Everything runs pinned to one CPU (taskset -c 0); Java with -XX:ActiveProcessorCount=1 and the serial GC.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=../jobs/lib/nginx.sh
. "$root/jobs/lib/nginx.sh"
TARGET_MB=${1:-300}
WORK=$(mktemp -d /tmp/ackscope-bench.XXXXXX)
chmod 755 "$WORK"
NGINX_PID=""
cleanup() {
    [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null || true
    nginx_stop "$WORK/nginx"
    if [ "${KEEP:-0}" = 1 ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

make_capture() {
    local port=18790 dir="$WORK/nginx"
    mkdir -p "$WORK/www"
    head -c 2048 /dev/zero | tr '\0' 'b' > "$WORK/www/index.html"
    chmod -R a+rX "$WORK/www"
    nginx_start "$dir" "$port" "$WORK/www" --user --connections 4096 --keepalive-requests 200 --nodelay on
    tcpdump -i lo -s 160 -U -w "$WORK/long.pcap" "tcp port $port" 2> "$WORK/tcpdump.log" &
    local tpid=$!
    sleep 1
    # keep-alive clients (connections re-made every 200 requests) plus one-request connections: many connections
    wrk -c 200 -t 2 -d 60s "http://127.0.0.1:$port/index.html" > "$WORK/wrk1.txt" &
    local w1=$!
    wrk -c 20 -t 1 -d 60s -H "Connection: close" "http://127.0.0.1:$port/index.html" > "$WORK/wrk2.txt" &
    local w2=$!
    while kill -0 "$w1" 2>/dev/null; do
        if [ "$(stat -c %s "$WORK/long.pcap" 2>/dev/null || echo 0)" -ge $((TARGET_MB * 1000000)) ]; then
            kill -INT "$w1" "$w2" 2>/dev/null || true
            break
        fi
        sleep 0.5
    done
    wait "$w1" "$w2" 2>/dev/null || true
    sleep 0.5
    kill -INT "$tpid"
    wait "$tpid" 2>/dev/null || true
    nginx_stop "$dir"
    echo "$WORK/long.pcap"
}

if [ -n "${CAPTURE:-}" ]; then F=$CAPTURE; else F=$(make_capture | tail -1); fi
echo "capture: $F ($(stat -c %s "$F") bytes)"

cd "$root"
[ -d target/classes/io/ackscope/tcp ] || mvn -B -o -q -Dstyle.color=never compile
mvn -B -o -q -Dstyle.color=never dependency:build-classpath -Dmdep.outputFile="$WORK/cp.txt" > /dev/null
CP="target/classes:$(cat "$WORK/cp.txt")"

echo "== ackscope engine (1 core)"
taskset -c 0 java -Xmx2g -XX:+UseSerialGC -XX:ActiveProcessorCount=1 -cp "$CP" bench/EngineBench.java "$F" \
    | tee "$WORK/engine.txt"
ENGINE_S=$(grep -oP 'RESULT packets_per_s=\S+ mb_per_s=\S+ wall_s=\K\S+' "$WORK/engine.txt")

wall_of() { # command... -> elapsed seconds (pinned to one core with taskset)
    /usr/bin/time -f "%e" -o "$WORK/time.txt" "$@" > /dev/null 2> "$WORK/err.txt" || true
    cat "$WORK/time.txt"
}
if [ "${SKIP_PEERS:-0}" = 1 ]; then exit 0; fi
echo "== tshark -n -r F -T fields -e tcp.stream -e tcp.analysis.ack_rtt (1 core)"
TSHARK_S=$(wall_of taskset -c 0 tshark -n -r "$F" -T fields -e tcp.stream -e tcp.analysis.ack_rtt)
echo "tshark ${TSHARK_S} s"
echo "== tcptrace -l -r F (1 core)"
TCPTRACE_S=$(wall_of taskset -c 0 tcptrace -l -r "$F")
echo "tcptrace ${TCPTRACE_S} s"
awk -v e="$ENGINE_S" -v t="$TSHARK_S" -v c="$TCPTRACE_S" 'BEGIN {
    printf "RATIO ackscope (read+decode+engine) vs tshark: %.1fx faster; vs tcptrace: %.2fx (wall seconds on one pinned core, same capture)\n", t / e, c / e }'
