#!/usr/bin/env bash
# Speed and scale benchmark of `ackscope analyze` (not a test). In one run, on the same capture:
#   1. makes a capture of real loopback traffic: nginx (Debian nginx-light) on 127.0.0.1:18790 serving a 1 KiB and a
#      32 KiB file, loaded by one wrk thread in alternating bounded rounds of keep-alive connections (-c 32, -c 8 for
#      the large file) and short connections ("Connection: close", -c 16), captured whole (-s 0) by tcpdump, until
#      the file reaches --size-mb; nginx and wrk run niced so tcpdump keeps up (the kernel's drop count is printed:
#      about 5% on a slow 2-core VM, 0 on a faster one);
#   2. times `ackscope analyze` embedded (local[*], JAVA_OPTS heap --heap-mb) and `tcptrace -l -r F` after one
#      untimed warm-up run of each, in --runs interleaved rounds, and `tshark -n -r F -T fields -e tcp.stream
#      -e tcp.analysis.ack_rtt` once, each writing to /dev/null (ackscope to a scratch directory), and prints the
#      ratios of the medians and ackscope's own breakdown (wall time per phase, task time per phase). ackscope's time
#      is the whole command as a user runs it: JVM and Spark start (from the class-data-sharing archive that
#      `mvn package` makes), analysis, Parquet tables, and report.html;
#   3. scale: runs analyze again with a heap of --small-heap-mb (default: a quarter of the capture, rounded down to
#      32 MB, at least 256 MB) and reports
#      whether it completed and its peak RSS, and how many tasks read the single large file. Spark refuses heaps
#      under ~450 MB (it reserves 300 MB and wants 1.5x that); this run lowers the reserve to 32 MB with
#      spark.testing.reservedMemory so a 256 MB heap is allowed.
# The capture and outputs live in a scratch directory that is deleted at the end (--keep keeps it); never commit them.
#
# Usage (as root): bench/analyze-bench.sh [--size-mb 1100] [--heap-mb 3072] [--small-heap-mb MB] [--work DIR]
#                  [--capture FILE (skip step 1)] [--runs N (3)] [--skip-tshark] [--keep]
# Needs: nginx, wrk, tcpdump, tshark, tcptrace, /usr/bin/time, java 17, maven (to build the jar once).
# The machine may be shared: the script prints nproc and the load average before and after, and every figure it
# prints is wall-clock time on that machine at that moment.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=../jobs/lib/nginx.sh
. "$root/jobs/lib/nginx.sh"
size_mb=1100
heap_mb=3072
small_heap_mb=""
work=""
capture=""
skip_tshark=0
keep=0
runs=3
while [ "$#" -gt 0 ]; do
  case "$1" in
    --size-mb) size_mb="$2"; shift 2 ;;
    --heap-mb) heap_mb="$2"; shift 2 ;;
    --small-heap-mb) small_heap_mb="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --capture) capture="$2"; shift 2 ;;
    --skip-tshark) skip_tshark=1; shift ;;
    --runs) runs="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
for tool in java tcptrace /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }
done
work="${work:-$(mktemp -d /tmp/ackscope-bench.XXXXXX)}"
mkdir -p "$work"
chmod 755 "$work"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  nginx_stop "$work/nginx"
  if [ "$keep" = 0 ]; then rm -rf "$work"; else echo "kept $work"; fi
}
trap cleanup EXIT

echo "== machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
jar="$root/target/ackscope.jar"
if [ ! -f "$jar" ] || [ ! -f "$root/target/ackscope-cluster.jar" ]; then
  "$root/jobs/build" analyze-bench
fi

# ---- 1. the capture -------------------------------------------------------------------------------------------
make_capture() {
  for tool in nginx wrk tcpdump; do
    command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }
  done
  local port=18790 dir="$work/nginx"
  mkdir -p "$work/www"
  head -c 1024 /dev/zero | tr '\0' 'a' > "$work/www/small.html"
  head -c 32768 /dev/zero | tr '\0' 'b' > "$work/www/big.html"
  chmod -R a+rX "$work/www"
  # nginx and wrk run niced so that tcpdump, which must keep up with them on the same 2 cores, is never starved: the
  # kernel drops what tcpdump does not read in time, and a capture with holes is a different (and for tcptrace much
  # slower) workload. The drop count is printed below.
  nginx_start "$dir" "$port" "$work/www" --user --workers 2 --connections 4096 --default-type text/html \
    --keepalive-timeout 65 --keepalive-requests 1000 --nodelay on --nice 10
  capture="$work/loopback.pcap"
  # No -U: writing packet by packet made tcpdump drop about 30% of the frames at this rate (2 cores shared with
  # nginx and wrk); buffered writes keep the kernel's drop count near zero, and the count is printed below.
  tcpdump -i lo -s 0 -B 262144 -w "$capture" "tcp port $port" 2> "$work/tcpdump.log" &
  local tpid=$!
  PIDS+=("$tpid")
  for _ in $(seq 50); do grep -q "listening on" "$work/tcpdump.log" 2>/dev/null && break; sleep 0.1; done
  local rounds=0 limit=$((size_mb * 1024 * 1024)) started=$SECONDS
  while [ "$(stat -c %s "$capture" 2>/dev/null || echo 0)" -lt "$limit" ] && [ $((SECONDS - started)) -lt 900 ]; do
    rounds=$((rounds + 1))
    # short rounds, so the capture ends within a few hundred MB of --size-mb on a fast machine
    nice -n 10 wrk -t 1 -c 32 -d 2s "http://127.0.0.1:$port/small.html" > /dev/null
    nice -n 10 wrk -t 1 -c 16 -d 1s -H "Connection: close" "http://127.0.0.1:$port/small.html" > /dev/null
    nice -n 10 wrk -t 1 -c 8 -d 1s "http://127.0.0.1:$port/big.html" > /dev/null
  done
  sleep 0.5
  kill -INT "$tpid" 2>/dev/null || true
  wait "$tpid" 2>/dev/null || true
  nginx_stop "$dir"
  echo "== capture: $capture, $(stat -c %s "$capture") bytes after $rounds wrk rounds in $((SECONDS - started)) s"
  grep -E "packets (captured|received|dropped)" "$work/tcpdump.log" || true
}
if [ -z "$capture" ]; then
  make_capture
fi
bytes=$(stat -c %s "$capture")
mb=$(awk -v b="$bytes" 'BEGIN{printf "%.0f", b/1048576}')
if [ -z "$small_heap_mb" ]; then
  small_heap_mb=$(( mb / 4 / 32 * 32 ))
  [ "$small_heap_mb" -lt 256 ] && small_heap_mb=256
fi

# ---- 2. timings -----------------------------------------------------------------------------------------------
timed() { # label outfile cmd... ; prints seconds and peak RSS
  local label=$1 out=$2; shift 2
  /usr/bin/time -f "%e %M" -o "$work/$label.time" "$@" > "$out" 2> "$work/$label.err" || {
    echo "$label failed (exit $?); see $work/$label.err" >&2; tail -5 "$work/$label.err" >&2; return 1; }
  read -r secs rss < "$work/$label.time"
  echo "$label: $secs s, peak RSS $((rss / 1024)) MB"
  eval "${label//-/_}_secs=$secs"
}

export SPARK_LOCAL_IP=127.0.0.1
echo "== timings on $capture ($mb MB): one untimed warm-up run each, then $runs interleaved rounds (median and range)"
# Through the embedded launcher, with its JVM settings (C1 JIT only; see jobs/ackscope). The warm-up runs put the
# capture, the jar and the class-data-sharing archive in the page cache for both tools alike; on a shared VM a
# single timing can be off by 30%, so the ratio is taken between medians of interleaved rounds.
JAVA_OPTS="-Xmx${heap_mb}m" "$root/jobs/ackscope" analyze "$capture" --out "$work/out" --overwrite > /dev/null 2>&1 || true
tcptrace -l -r "$capture" > /dev/null 2>&1 || true
ackscope_all=() tcptrace_all=()
for round in $(seq "$runs"); do
  JAVA_OPTS="-Xmx${heap_mb}m" timed ackscope "$work/ackscope.out" \
    "$root/jobs/ackscope" analyze "$capture" --out "$work/out" --overwrite
  ackscope_all+=("$ackscope_secs")
  timed tcptrace /dev/null tcptrace -l -r "$capture"
  tcptrace_all+=("$tcptrace_secs")
done
sed 's/^/    /' "$work/ackscope.out"
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
range() { printf '%s\n' "$@" | sort -g | awk 'NR==1{lo=$1} {hi=$1} END {print lo "-" hi}'; }
ackscope_secs=$(median "${ackscope_all[@]}")
tcptrace_secs=$(median "${tcptrace_all[@]}")
echo "ackscope: median $ackscope_secs s ($(range "${ackscope_all[@]}") s); tcptrace: median $tcptrace_secs s ($(range "${tcptrace_all[@]}") s)"
if [ "$skip_tshark" = 0 ]; then
  # one run: at 40-90 s it is far from the 30x line either way
  timed tshark /dev/null tshark -n -r "$capture" -T fields -e tcp.stream -e tcp.analysis.ack_rtt
fi
awk -v a="$ackscope_secs" -v t="${tshark_secs:-0}" -v c="$tcptrace_secs" -v mb="$mb" 'BEGIN {
  printf "throughput: ackscope %.0f MB/s, tcptrace %.0f MB/s", mb/a, mb/c
  if (t > 0) printf ", tshark %.0f MB/s", mb/t
  printf "\nratios (medians): ackscope is %.2fx tcptrace", c/a
  if (t > 0) printf ", %.1fx tshark", t/a
  printf " (targets: >= 0.5x tcptrace, >= 30x tshark)\n" }'

# ---- 3. scale ---------------------------------------------------------------------------------------------------
echo "== scale: analyze with -Xmx${small_heap_mb}m on a $mb MB capture ($(awk -v a="$mb" -v b="$small_heap_mb" 'BEGIN{printf "%.1f", a/b}')x the heap)"
if JAVA_OPTS="-Xmx${small_heap_mb}m" timed ackscope-small-heap "$work/small.out" \
     "$root/jobs/ackscope" analyze "$capture" --out "$work/out-small" --overwrite \
       --conf spark.testing.reservedMemory=33554432; then
  grep -E "^read in|connections in" "$work/small.out" | sed 's/^/    /'
fi
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
