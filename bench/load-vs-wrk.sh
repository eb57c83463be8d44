#!/usr/bin/env bash
# ackscope load and wrk side by side, against the same servers on loopback.
#
# Targets (all on 127.0.0.1, started and stopped by this script):
#   nginx-nodelay      Debian nginx, sendfile on, tcp_nopush off, tcp_nodelay on   (no stall)
#   nginx-stall        Debian nginx, sendfile on, tcp_nopush off, tcp_nodelay off  (Nagle x delayed-ACK stall)
#   serve-nodelay      ackscope serve --nodelay                                     (no stall)
#   serve-stall        ackscope serve --no-nodelay --split-writes                   (stall)
# For each target, ROUNDS rounds, each running wrk then ackscope load with the same -t/-c/-d; prints every run,
# then the medians side by side. Figures depend on what else the machine is doing: say so when quoting them.
#
# Usage: bench/load-vs-wrk.sh [-d DURATION] [-c CONNECTIONS] [-t THREADS] [-r ROUNDS] [-T TARGETS] [-w WARMUP]
#   defaults: -d 5s -c 4 -t 1 -r 3 -T "nginx-nodelay nginx-stall serve-nodelay serve-stall" -w 0
#   -w passes --warmup to ackscope load only (wrk has no warm-up and, being C, needs none; the JVM compiles its
#   event loop during the first second or so, which a short run otherwise pays for on the clock).
# Needs: /usr/sbin/nginx, wrk, java 17; runs ackscope through jobs/ackscope (which builds the jar if missing).
set -euo pipefail
# shellcheck source=../jobs/lib/nginx.sh
. "$(dirname "$0")/../jobs/lib/nginx.sh"

duration=5s conns=4 threads=1 rounds=3 warmup=0
targets="nginx-nodelay nginx-stall serve-nodelay serve-stall"
while getopts "d:c:t:r:T:w:" opt; do
  case "$opt" in
    d) duration=$OPTARG ;;
    c) conns=$OPTARG ;;
    t) threads=$OPTARG ;;
    r) rounds=$OPTARG ;;
    T) targets=$OPTARG ;;
    w) warmup=$OPTARG ;;
    *) sed -n '2,19p' "$0"; exit 2 ;;
  esac
done

cd "$(dirname "$0")/.."
ackscope=jobs/ackscope
"$ackscope" --help >/dev/null # builds target/ackscope.jar on first use
for tool in /usr/sbin/nginx wrk java; do
  command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }
done

work=$(mktemp -d /tmp/ackscope-bench.XXXXXX)
pids=()
stop_dirs=()
cleanup() {
  for d in "${stop_dirs[@]}"; do nginx_stop "$d"; done
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % 20000))
    ss -ltnH "sport = :$p" | grep -q . || { echo "$p"; return; }
  done
}

wait_port() {
  for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on 127.0.0.1:$1" >&2
  exit 1
}

# start_nginx NAME on|off -> sets $port
start_nginx() {
  local dir="$work/$1"
  port=$(free_port)
  mkdir -p "$dir/www"
  head -c 4096 /dev/zero | tr '\0' 'a' >"$dir/www/index.html"
  nginx_start "$dir" "$port" "$dir/www" --nodelay "$2" --keepalive-requests 10000000 || exit 1
  stop_dirs+=("$dir")
}

# start_serve NAME ARGS... -> sets $port
start_serve() {
  local name=$1 out="$work/$1.out"
  shift
  "$ackscope" serve -p 0 --json "$@" >"$out" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 100); do
    if grep -q '"port"' "$out" 2>/dev/null; then
      port=$(sed -n 's/.*"port":\([0-9]*\).*/\1/p' "$out" | head -1)
      return
    fi
    sleep 0.1
  done
  echo "ackscope serve ($name) did not start" >&2
  exit 1
}

# to_ms VALUE-WITH-UNIT (wrk's 43.98ms / 80.00us / 1.02s)
to_ms() {
  awk -v v="$1" 'BEGIN {
    n = v + 0; u = v; sub(/^[0-9.]+/, "", u);
    if (u == "us") n /= 1000; else if (u == "s") n *= 1000; else if (u == "m") n *= 60000;
    printf "%.3f", n }'
}

run_wrk() { # URL -> "rps p50_ms p99_ms"
  local out
  out=$(wrk -t "$threads" -c "$conns" -d "$duration" --latency "$1")
  local rps p50 p99
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  echo "$rps $(to_ms "$p50") $(to_ms "$p99")"
}

run_ackscope() { # URL -> "rps p50_ms p99_ms"
  local out
  out=$("$ackscope" load -t "$threads" -c "$conns" -d "$duration" --warmup "$warmup" --json "$1")
  local rps p50 p99
  rps=$(sed -n 's/.*"requests_per_sec":\([0-9.]*\).*/\1/p' <<<"$out")
  p50=$(sed -n 's/.*"latency_us":{[^}]*"p50":\([0-9]*\).*/\1/p' <<<"$out")
  p99=$(sed -n 's/.*"latency_us":{[^}]*"p99":\([0-9]*\).*/\1/p' <<<"$out")
  awk -v r="$rps" -v a="$p50" -v b="$p99" 'BEGIN { printf "%.2f %.3f %.3f\n", r, a / 1000, b / 1000 }'
}

declare -A url
for t in $targets; do
  case "$t" in
    nginx-nodelay) start_nginx "$t" on; url[$t]="http://127.0.0.1:$port/index.html" ;;
    nginx-stall) start_nginx "$t" off; url[$t]="http://127.0.0.1:$port/index.html" ;;
    serve-nodelay) start_serve "$t" --nodelay; url[$t]="http://127.0.0.1:$port/" ;;
    serve-stall) start_serve "$t" --no-nodelay --split-writes; url[$t]="http://127.0.0.1:$port/" ;;
    *) echo "unknown target $t" >&2; exit 2 ;;
  esac
done

echo "# $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); -t $threads -c $conns -d $duration," \
  "$rounds rounds, ackscope --warmup $warmup"
printf '%-14s %-9s %5s %12s %10s %10s\n' target tool round req/s p50_ms p99_ms
results="$work/results"
: >"$results"
for t in $targets; do
  for r in $(seq "$rounds"); do
    read -r rps p50 p99 < <(run_wrk "${url[$t]}")
    printf '%-14s %-9s %5s %12s %10s %10s\n' "$t" wrk "$r" "$rps" "$p50" "$p99" | tee -a "$results"
    read -r rps p50 p99 < <(run_ackscope "${url[$t]}")
    printf '%-14s %-9s %5s %12s %10s %10s\n' "$t" ackscope "$r" "$rps" "$p50" "$p99" | tee -a "$results"
  done
done

echo
echo "# medians over $rounds rounds"
printf '%-14s %12s %12s %8s %12s %12s\n' target wrk_req/s ack_req/s ratio wrk_p50_ms ack_p50_ms
for t in $targets; do
  median() { awk -v t="$t" -v tool="$1" -v col="$2" '$1 == t && $2 == tool {print $col}' "$results" | sort -g |
    awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
  wr=$(median wrk 4) ar=$(median ackscope 4) wp=$(median wrk 5) ap=$(median ackscope 5)
  printf '%-14s %12s %12s %8s %12s %12s\n' "$t" "$wr" "$ar" "$(awk -v a="$ar" -v w="$wr" 'BEGIN {printf "%.2f", a / w}')" "$wp" "$ap"
done
