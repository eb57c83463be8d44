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
    for conf in "$WORK"/*/nginx.pid; do
        [ -f "$conf" ] && kill "$(cat "$conf")" 2>/dev/null || true
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
    local name=$1 port=$2 nodelay=$3 dir="$WORK/$1"
    mkdir -p "$dir/tmp"
    cat > "$dir/nginx.conf" <<CONF
worker_processes 1;
user nobody nogroup;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    default_type text/html;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    sendfile on;
    tcp_nopush off;
    tcp_nodelay $nodelay;
    keepalive_timeout 65;
    keepalive_requests 1000000;
    server {
        listen 127.0.0.1:$port;
        root $WORK/www;
    }
}
CONF
    nginx -c "$dir/nginx.conf" -p "$dir"
    for _ in $(seq 50); do
        [ -s "$dir/nginx.pid" ] && break
        sleep 0.1
    done
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
