#!/usr/bin/env bash
# Remakes the two nginx sample captures of the Nagle x delayed-ACK seed case (see README.md beside this script).
#
# Two nginx instances on loopback, each with its own configuration in a temporary directory, serve the same small
# static file. Both use sendfile (so nginx sends the response header and the body in two separate calls) without
# tcp_nopush (Debian's stock nginx.conf turns tcp_nopush on, which corks the header and hides the stall):
#   latency: tcp_nodelay off -> Nagle holds the body until the client's delayed ACK of the header (~40 ms)
#   good:    tcp_nodelay on  -> the body leaves at once
# Each is loaded with wrk (--latency -c 20 -t 2 -d 3s) while tcpdump captures its port on lo.
#
# Usage (as root): sample-pcaps/make-nginx-captures.sh [OUTPUT_DIR]   (default: the directory of this script)
# Needs: nginx (Debian nginx-light), wrk, tcpdump, gzip. Touches only 127.0.0.1 ports 18780 and 18781.
set -euo pipefail
# shellcheck source=../jobs/lib/nginx.sh
. "$(dirname "$0")/../jobs/lib/nginx.sh"

OUT=$(cd "${1:-$(dirname "$0")}" && pwd)
SNAPLEN=160          # Ethernet/IP/TCP headers (66 B on lo) plus the HTTP request line, Host header and status line
MAX_PACKETS=40000    # keeps the good capture (tens of thousands of requests per second) under 5 MB
WRK_ARGS=(--latency -c 20 -t 2 -d 3s)

for tool in nginx wrk tcpdump gzip; do
    command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }
done
if [ "$(id -u)" != 0 ]; then
    echo "run as root (tcpdump on lo, nginx workers as nobody)" >&2
    exit 1
fi

WORK=$(mktemp -d /tmp/ackscope-nginx.XXXXXX)
chmod 755 "$WORK"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for dir in "$WORK"/*/; do
        nginx_stop "$dir"
    done
    sleep 0.5
    rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/www"
# 1 KiB body: small enough that Nagle holds it while the header is unacknowledged
head -c 1024 /dev/zero | tr '\0' 'a' > "$WORK/www/index.html"
chmod -R a+rX "$WORK/www"

start_nginx() { # name port nodelay
    nginx_start "$WORK/$1" "$2" "$WORK/www" --user --nodelay "$3" --default-type text/html \
        --keepalive-timeout 65 --keepalive-requests 1000000 || exit 1
}

capture() { # name port file
    local name=$1 port=$2 file=$3
    local pcap="$WORK/$name.pcap"
    tcpdump -i lo -s "$SNAPLEN" -c "$MAX_PACKETS" -U -w "$pcap" "tcp port $port" 2> "$WORK/$name.tcpdump.log" &
    local tpid=$!
    PIDS+=("$tpid")
    for _ in $(seq 50); do
        grep -q "listening on" "$WORK/$name.tcpdump.log" 2>/dev/null && break
        sleep 0.1
    done
    echo "== $name: nginx $(cat "$WORK/$name/nginx.conf" | grep -E 'tcp_nodelay|sendfile|tcp_nopush' | tr -s ' ' | tr '\n' ' ')"
    wrk "${WRK_ARGS[@]}" "http://127.0.0.1:$port/index.html"
    sleep 0.5
    kill -INT "$tpid" 2>/dev/null || true
    wait "$tpid" 2>/dev/null || true
    grep -E "packets (captured|received)" "$WORK/$name.tcpdump.log" || true
    gzip -9 -n -c "$pcap" > "$OUT/$file"
    echo "wrote $OUT/$file ($(stat -c %s "$OUT/$file") bytes)"
}

start_nginx latency 18781 off
start_nginx good 18780 on
capture latency 18781 nginx-nodelay-off.pcap.gz
capture good 18780 nginx-nodelay-on.pcap.gz
