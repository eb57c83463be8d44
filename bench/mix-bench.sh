#!/usr/bin/env bash
# Benchmark of `ackscope analyze` on a many-connection capture of Ethernet-sized frames (not a test). The loopback
# benchmark (bench/analyze-bench.sh) sees 64 KiB frames and a few tens of thousands of connections; this one sees
# what a capture of a real network sees: many short connections beside keep-alive and bulk ones, 1500-byte frames.
#   1. makes the capture (unless --capture names one that exists): two network namespaces joined by a veth pair
#      (MTU 1500, TSO/GSO/GRO off with ethtool, so every frame is Ethernet-sized), Debian nginx (nginx-light) in
#      the server's with `tcp_nodelay off` on port 8080 and `on` on port 8081, and three wrk clients at once in the
#      client's, in rounds of --round-seconds until the capture reaches the size's bytes:
#        - keep-alive requests for a 1 KiB file against the stalling port 8080 (-c 50),
#        - 64 KiB downloads against port 8081 (-c 4), each connection waiting 4 ms between requests (a wrk Lua
#          delay()),
#        - `Connection: close` requests for the 1 KiB file against port 8081 (-c 16);
#      tcpdump captures the client's veth whole (-s 0); its kernel drop count and the capture's SYN count (one per
#      connection) are printed. --size large (default): at least 1100 MiB (on a 2-core VM, about 200 k connections
#      in 18 s); --size small: at least 100 MiB, for profiling;
#   2. times, in --runs interleaved rounds after one untimed warm-up of each, every other round in reverse order
#      (A B C, C B A, A B C, ...: a build that always ran first or last would carry the machine's drift):
#        `jobs/ackscope analyze CAP --out O --overwrite` (this checkout; with --baseline DIR also DIR/jobs/ackscope),
#        `tcptrace -l -r CAP`, and `tshark -n -r CAP -T fields -e tcp.stream -e tcp.analysis.ack_rtt` (--skip-tshark
#        leaves it out; --tshark-runs N runs it in only the first N rounds, default 1: it takes minutes),
#      each whole process under /usr/bin/time -v, output to /dev/null (ackscope's tables to a scratch directory),
#      and prints per run wall, CPU-seconds (user + sys) and peak RSS with the load average before and after it;
#      then the medians, the ratios of ackscope's medians to the peers', with --baseline the rounds this checkout won
#      and the median of the per-round differences, and ackscope's own phase lines;
#   3. counts the processes analyze starts: one more untimed run under strace (execve of any process below the JVM,
#      after the launcher's own exec of java).
# Every figure is wall-clock or CPU time on this machine at that moment: the load average printed beside each run
# says how far it can be trusted (the issue's targets are for an otherwise idle machine).
#
# Usage (as root): bench/mix-bench.sh [--size large|small] [--capture FILE] [--make-only] [--round-seconds S (6)]
#                  [--runs N (3)] [--baseline DIR] [--skip-tshark] [--tshark-runs N (1)] [--work DIR] [--keep]
#   --capture FILE   use FILE when it exists, else make it there and keep it (e.g. /work/bench-data/mix.pcap);
#                    without it the capture is made in the scratch directory and deleted with it
#   --make-only      make the capture and stop
# Needs: ip (iproute2), ethtool, nginx, wrk, tcpdump, tcptrace, tshark, strace, /usr/bin/time, java 17.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
size=large
capture=""
make_only=0
round_seconds=6
runs=3
baseline=""
skip_tshark=0
tshark_runs=1
work=""
keep=0
while [ "$#" -gt 0 ]; do
  case "$1" in
    --size) size="$2"; shift 2 ;;
    --capture) capture="$2"; shift 2 ;;
    --make-only) make_only=1; shift ;;
    --round-seconds) round_seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --baseline) baseline="$2"; shift 2 ;;
    --skip-tshark) skip_tshark=1; shift ;;
    --tshark-runs) tshark_runs="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
case "$size" in
  large) size_mib=1100 ;;
  small) size_mib=100 ;;
  *) echo "--size is large or small, not $size" >&2; exit 2 ;;
esac
if [ -n "$baseline" ] && [ ! -x "$baseline/jobs/ackscope" ]; then
  echo "--baseline $baseline: no jobs/ackscope there" >&2; exit 2
fi
work="${work:-$(mktemp -d /tmp/ackscope-mix.XXXXXX)}"
mkdir -p "$work"
chmod 755 "$work"
tag="amx$$"            # namespace and device names of this run: two helpers' runs never share them
ns_c="${tag}c" ns_s="${tag}s"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for ns in "$ns_c" "$ns_s"; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill "$pid" 2>/dev/null || true; done
  done
  sleep 0.2
  ip netns del "$ns_c" 2>/dev/null || true
  ip netns del "$ns_s" 2>/dev/null || true
  if [ "$keep" = 0 ]; then rm -rf "$work"; else echo "kept $work"; fi
}
trap cleanup EXIT
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
echo "== machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; load average before: $(loadavg)"

# ---- 1. the capture -------------------------------------------------------------------------------------------
make_capture() { # FILE
  local file=$1
  for tool in ip ethtool nginx wrk tcpdump; do
    command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }
  done
  mkdir -p "$(dirname "$file")" "$work/www" "$work/nginx/tmp"
  head -c 1024 /dev/zero | tr '\0' 'a' > "$work/www/small.html"
  head -c 65536 /dev/zero | tr '\0' 'b' > "$work/www/big.html"
  chmod -R a+rX "$work/www"
  ip netns add "$ns_c"
  ip netns add "$ns_s"
  ip link add "${tag}a" type veth peer name "${tag}b"
  ip link set "${tag}a" netns "$ns_c"
  ip link set "${tag}b" netns "$ns_s"
  local c_ip=10.77.0.1 s_ip=10.77.0.2
  ip -n "$ns_c" addr add "$c_ip/24" dev "${tag}a"
  ip -n "$ns_s" addr add "$s_ip/24" dev "${tag}b"
  for side in "$ns_c ${tag}a" "$ns_s ${tag}b"; do
    set -- $side
    ip -n "$1" link set lo up
    ip -n "$1" link set "$2" mtu 1500 up
    # without these the kernel hands tcpdump 64 KiB super-frames (TSO/GSO on send, GRO on receive)
    ip netns exec "$1" ethtool -K "$2" tso off gso off gro off > /dev/null
    # the Connection: close client opens ~10 k connections a second: widen its port range and let it reuse ports
    # in TIME_WAIT (their timestamps tell the server the new connection apart)
    ip netns exec "$1" sysctl -q -w net.ipv4.ip_local_port_range="1024 65000" net.ipv4.tcp_tw_reuse=1
  done
  # nginx as in jobs/lib/nginx.sh (sendfile on, tcp_nopush off, no access log), listening on the server's address
  # with Nagle on one port and off on the other (nginx sets TCP_NODELAY on keep-alive connections only)
  cat > "$work/nginx/nginx.conf" <<EOF
daemon off;
user nobody nogroup;
worker_processes 2;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    default_type text/html;
    client_body_temp_path $work/nginx/tmp/body; proxy_temp_path $work/nginx/tmp/proxy;
    fastcgi_temp_path $work/nginx/tmp/fastcgi; uwsgi_temp_path $work/nginx/tmp/uwsgi; scgi_temp_path $work/nginx/tmp/scgi;
    sendfile on;
    tcp_nopush off;
    keepalive_timeout 65;
    keepalive_requests 1000000;
    server { listen $s_ip:8080 backlog=4096; root $work/www; tcp_nodelay off; }
    server { listen $s_ip:8081 backlog=4096; root $work/www; tcp_nodelay on; }
}
EOF
  ip netns exec "$ns_s" nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" \
    > "$work/nginx/stdout.log" 2>&1 &
  PIDS+=("$!")
  for _ in $(seq 100); do
    ip netns exec "$ns_c" bash -c "exec 3<>/dev/tcp/$s_ip/8081" 2>/dev/null && break
    sleep 0.1
  done
  cat > "$work/think.lua" <<'EOF'
-- 4 ms between one response and the next request on each connection
function delay()
  return 4
end
EOF
  ip netns exec "$ns_c" tcpdump -i "${tag}a" -n -s 0 -B 262144 -w "$file" tcp 2> "$work/tcpdump.log" &
  local tpid=$!
  PIDS+=("$tpid")
  for _ in $(seq 50); do grep -q "listening on" "$work/tcpdump.log" 2>/dev/null && break; sleep 0.1; done
  local limit=$((size_mib * 1024 * 1024)) started=$SECONDS rounds=0
  while [ "$(stat -c %s "$file" 2>/dev/null || echo 0)" -lt "$limit" ] && [ $((SECONDS - started)) -lt 600 ]; do
    rounds=$((rounds + 1))
    ip netns exec "$ns_c" wrk -t 1 -c 50 -d "${round_seconds}s" "http://$s_ip:8080/small.html" > "$work/wrk-keepalive.log" &
    local w1=$!
    ip netns exec "$ns_c" wrk -t 1 -c 4 -d "${round_seconds}s" -s "$work/think.lua" "http://$s_ip:8081/big.html" \
      > "$work/wrk-download.log" &
    local w2=$!
    ip netns exec "$ns_c" wrk -t 1 -c 16 -d "${round_seconds}s" -H "Connection: close" \
      "http://$s_ip:8081/small.html" > "$work/wrk-close.log" &
    local w3=$!
    wait "$w1" "$w2" "$w3"
  done
  sleep 0.5
  kill -INT "$tpid" 2>/dev/null || true
  wait "$tpid" 2>/dev/null || true
  echo "== capture: $file, $(stat -c %s "$file") bytes after $rounds rounds of 3 wrk clients in $((SECONDS - started)) s"
  grep -E "packets (captured|received|dropped)" "$work/tcpdump.log" | sed 's/^/    /' || true
  local syns
  syns=$(tcpdump -r "$file" -n 'tcp[tcpflags] & (tcp-syn|tcp-ack) == tcp-syn' 2>/dev/null | wc -l)
  echo "    connections (SYNs without ACK): $syns"
  if [ "$size" = large ] && [ "$syns" -lt 150000 ]; then
    echo "    fewer than 150 k connections: a busy machine; rerun with a larger --round-seconds" >&2
  fi
}
if [ -z "$capture" ]; then
  capture="$work/mix.pcap"
fi
if [ ! -s "$capture" ]; then
  make_capture "$capture"
else
  echo "== capture: $capture (exists, $(stat -c %s "$capture") bytes)"
fi
[ "$make_only" = 1 ] && exit 0

# ---- 2. timings -----------------------------------------------------------------------------------------------
for tool in java tcptrace /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }
done
if [ ! -f "$root/target/ackscope.jar" ]; then "$root/jobs/build" mix-bench; fi
export SPARK_LOCAL_IP=127.0.0.1
declare -A WALL CPU RSS
timed() { # LABEL OUT CMD...: one run under /usr/bin/time -v; appends to WALL/CPU/RSS of LABEL
  local label=$1 out=$2; shift 2
  local before after
  before=$(loadavg)
  /usr/bin/time -v -o "$work/$label.time" "$@" > "$out" 2> "$work/$label.err" || {
    echo "$label failed; see $work/$label.err" >&2; tail -5 "$work/$label.err" >&2; return 1; }
  after=$(loadavg)
  local wall user sys rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$work/$label.time")
  user=$(awk -F': ' '/User time/ {print $2}' "$work/$label.time")
  sys=$(awk -F': ' '/System time/ {print $2}' "$work/$label.time")
  rss=$(awk -F': ' '/Maximum resident/ {print int($2 / 1024)}' "$work/$label.time")
  local cpu
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}')
  printf '  %-9s wall %7.2f s  cpu %7.2f s (user %s, sys %s)  peak RSS %5d MB  load %s -> %s\n' \
    "$label" "$wall" "$cpu" "$user" "$sys" "$rss" "$before" "$after"
  WALL[$label]+="$wall "
  CPU[$label]+="$cpu "
  RSS[$label]+="$rss "
}
median() { printf '%s\n' $1 | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

labels=(ackscope)
[ -n "$baseline" ] && labels+=(baseline)
labels+=(tcptrace)
[ "$skip_tshark" = 0 ] && labels+=(tshark)
run() { # LABEL ROUND (ROUND 0: untimed warm-up)
  local label=$1 round=$2 out=/dev/null
  local cmd
  case "$label" in
    # --verbose: analyze prints its phase and task-time lines only then (the baseline's older builds always do)
    ackscope) cmd=("$root/jobs/ackscope" analyze "$capture" --out "$work/out" --overwrite --verbose)
              out="$work/ackscope.out" ;;
    baseline) cmd=("$baseline/jobs/ackscope" analyze "$capture" --out "$work/out-baseline" --overwrite)
              out="$work/baseline.out" ;;
    tcptrace) cmd=(tcptrace -l -r "$capture") ;;
    tshark) cmd=(tshark -n -r "$capture" -T fields -e tcp.stream -e tcp.analysis.ack_rtt) ;;
  esac
  if [ "$round" = 0 ]; then
    "${cmd[@]}" > /dev/null 2>&1 || true
  else
    timed "$label" "$out" "${cmd[@]}"
  fi
}
echo "== warm-up (untimed): page cache, class-data-sharing archive"
for label in "${labels[@]}"; do [ "$label" = tshark ] || run "$label" 0; done
echo "== $runs interleaved rounds on $capture"
for round in $(seq "$runs"); do
  echo " round $round"
  order=("${labels[@]}")
  if [ $((round % 2)) = 0 ]; then
    order=()
    for ((i = ${#labels[@]} - 1; i >= 0; i--)); do order+=("${labels[i]}"); done
  fi
  for label in "${order[@]}"; do
    if [ "$label" = tshark ] && [ "$round" -gt "$tshark_runs" ]; then continue; fi
    run "$label" "$round"
  done
done
echo "== medians"
for label in "${labels[@]}"; do
  printf '  %-9s wall %7.2f s  cpu %7.2f s  peak RSS %5.0f MB  (%d runs)\n' "$label" "$(median "${WALL[$label]}")" \
    "$(median "${CPU[$label]}")" "$(median "${RSS[$label]}")" "$(wc -w <<< "${WALL[$label]}")"
done
a_wall=$(median "${WALL[ackscope]}") a_cpu=$(median "${CPU[ackscope]}")
for peer in "${labels[@]}"; do
  [ "$peer" = ackscope ] && continue
  awk -v aw="$a_wall" -v ac="$a_cpu" -v pw="$(median "${WALL[$peer]}")" -v pc="$(median "${CPU[$peer]}")" -v p="$peer" \
    'BEGIN {printf "  ackscope against %-9s %5.2fx faster in wall time, %5.2fx its CPU-seconds\n", p, pw / aw, ac / pc}'
done
# paired by round as well: on a shared VM the machine's speed can drift by half between rounds, which moves the
# medians above apart when the slow rounds fall unevenly between the commands (each peer's runs are paired with
# ackscope's of the same rounds; tshark runs in the first rounds only)
for peer in "${labels[@]}"; do
  [ "$peer" = ackscope ] && continue
  n=$(wc -w <<< "${WALL[$peer]}")
  ratios=$(paste <(printf '%s\n' ${WALL[ackscope]} | head -n "$n") <(printf '%s\n' ${WALL[$peer]}) \
                 <(printf '%s\n' ${CPU[ackscope]} | head -n "$n") <(printf '%s\n' ${CPU[$peer]}))
  printf '  ackscope against %-9s round by round: %5.2fx faster in wall time, %5.2fx its CPU-seconds (medians of %d rounds\x27 ratios)\n' \
    "$peer" "$(median "$(awk '{print $2 / $1}' <<< "$ratios")")" "$(median "$(awk '{print $3 / $4}' <<< "$ratios")")" "$n"
done
if [ -n "$baseline" ]; then
  # paired by round: both ran within a minute of each other, so the machine's drift between rounds cancels
  pairs=$(paste <(printf '%s\n' ${WALL[ackscope]}) <(printf '%s\n' ${WALL[baseline]}) \
                <(printf '%s\n' ${CPU[ackscope]}) <(printf '%s\n' ${CPU[baseline]}))
  printf '  ackscope against baseline, round by round: faster in %d of %d, less CPU in %d of %d; median difference %+.2f s wall, %+.2f CPU-s\n' \
    "$(awk '$1 < $2' <<< "$pairs" | wc -l)" "$(wc -l <<< "$pairs")" "$(awk '$3 < $4' <<< "$pairs" | wc -l)" \
    "$(wc -l <<< "$pairs")" "$(median "$(awk '{print $1 - $2}' <<< "$pairs")")" \
    "$(median "$(awk '{print $3 - $4}' <<< "$pairs")")"
fi
echo "  (targets on an idle machine: >= 2x tcptrace in wall, <= 1.0x its CPU-seconds; >= 20x tshark; RSS <= 1 GB)"
echo "== analyze's phase lines (last run)"
sed 's/^/    /' "$work/ackscope.out"
if [ -n "$baseline" ]; then
  echo "== baseline's phase lines (last run)"
  sed 's/^/    /' "$work/baseline.out"
fi

# ---- 3. processes started by analyze ---------------------------------------------------------------------------
if command -v strace >/dev/null; then
  for label in ackscope ${baseline:+baseline}; do
    launcher="$root/jobs/ackscope"
    [ "$label" = baseline ] && launcher="$baseline/jobs/ackscope"
    strace -f -qq -e trace=execve -e signal=none -o "$work/$label.strace" \
      "$launcher" analyze "$capture" --out "$work/out-strace" --overwrite > /dev/null 2>&1 || true
    # every process (pid) with a successful execve after the launcher's exec of java is one the JVM started
    # (Java starts each through jspawnhelper, which then execs the command: one pid, two execs)
    forks=$(awk '/execve\("[^"]*\/java"/ && / = 0$/ && !seen {seen = 1; next}
                 seen && /execve\(/ && / = 0$/ {pids[$1] = 1}
                 END {n = 0; for (p in pids) n++; print n}' "$work/$label.strace")
    echo "== processes started by $label's JVM (strace, one more run): $forks"
    awk '/execve\("[^"]*\/java"/ && / = 0$/ && !seen {seen = 1; next}
         seen && /execve\(/ && / = 0$/ && !/jspawnhelper/ {split($0, q, "\\[\""); split(q[2], c, "\""); n[c[1]]++}
         END {for (k in n) printf "    %5d %s\n", n[k], k}' "$work/$label.strace" | sort -rn
  done
fi
echo "== load average after: $(loadavg)"
