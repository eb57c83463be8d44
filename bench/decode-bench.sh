#!/usr/bin/env bash
# Read + decode throughput of a warm ~200 MB capture next to `cat` and `tcpdump -nn -r`, plus the decoder alone under
# JMH with -prof gc (bytes allocated per packet). Not a test: figures depend on the machine and its load.
#
#   bench/decode-bench.sh [CAPTURE]
#
# Without CAPTURE, target/bench/mix.pcap is made (once) by appending the corpus's full-size classic Ethernet captures
# to each other until the file reaches 200 MB: real traffic (HTTP downloads with retransmissions, SSH, FTP, DNS,
# VLAN/QinQ/MPLS, IPv6), not one connection repeated. Steps:
#   1. bench/read-bench.sh on that file: wall-clock MB/s of read-only and read + decode, cat and tcpdump (best of 3);
#   2. JMH io.ackscope.decode.DecodeBenchmark (src/jmh/java, built by `mvn -P jmh package` into
#      target/ackscope-benchmarks.jar) with -prof gc;
#   3. the same passes in CPU time (DecodeCpuTime; user + sys for cat and tcpdump): on a shared machine MB per
#      CPU-second is much less disturbed by other load than wall-clock MB/s.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out=target/bench
mkdir -p "$out"
capture="${1:-$out/mix.pcap}"
corpus="${ACKSCOPE_CORPUS:-$root/testdata/corpus}"

if [ ! -f "$capture" ]; then
  parts=(zeek__206_example_b.pcap zeek__bro.org.pcap zeek__methods.pcap zeek__bruteforce.pcap
         zeek__vnd.ms-cab-compressed-multi-conn.pcap zeek__ipv6.pcap zeek__vlan-collisions.pcap
         zeek__vlan-qinqinq.pcap zeek__mixed-vlan-mpls.pcap tcpdump__ssh.pcap pcpp__three_http_streams.pcap
         pcpp__DnsPackets.pcap)
  list=()
  size=0
  while [ "$size" -lt $((200 * 1024 * 1024)) ]; do
    for p in "${parts[@]}"; do
      list+=("$corpus/$p")
      size=$((size + $(stat -c %s "$corpus/$p")))
    done
  done
  echo "making $capture from ${#list[@]} corpus files (mergecap -a)" >&2
  mergecap -F pcap -a -w "$capture" "${list[@]}"
fi
mb=$(awk -v b="$(stat -c %s "$capture")" 'BEGIN { printf "%.1f", b / 1e6 }')

echo "== 1. wall clock (bench/read-bench.sh)"
ACKSCOPE_BENCH_FILE="$capture" bench/read-bench.sh 200 read decode

echo "== 2. JMH -prof gc"
# the benchmarks jar from the pom's jmh profile (JMH and its annotation processor from Maven Central)
jobs/build decode-bench -P jmh -Dackscope.cds.skip=true
jar=target/ackscope-benchmarks.jar
java -jar "$jar" 'io.ackscope.decode.DecodeBenchmark' -p capture="$capture" -prof gc \
  -rf csv -rff "$out/jmh.csv" > "$out/jmh.txt"
sed -n '/^Benchmark /,$p' "$out/jmh.txt" | grep -v '^Benchmark result'

echo "== 3. CPU time"
best_cpu() { # command... -> best user + sys seconds of 3 runs
  local b=999999 t
  for _ in 1 2 3; do
    /usr/bin/time -f "%U %S" -o "$out/time.txt" "$@" > /dev/null 2>&1 || true
    t=$(tail -1 "$out/time.txt" | awk '{ print $1 + $2 }')
    b=$(awk -v b="$b" -v t="$t" 'BEGIN { print (t < b) ? t : b }')
  done
  echo "$b"
}
cat "$capture" > /dev/null
cat_cpu=$(best_cpu cat "$capture")
tcpdump_cpu=$(best_cpu tcpdump -nn -r "$capture")
java -Xms1g -Xmx1g -cp "$jar" io.ackscope.decode.DecodeCpuTime "$capture" 10 > "$out/cpu.txt"
awk -v mb="$mb" -v cc="$cat_cpu" -v ct="$tcpdump_cpu" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" '
  $2 == "readAndDecode" { rd = $3 } $2 == "readOnly" { ro = $3 } $2 == "decodeOnly" { dn = $3 }
  END {
    printf "capture %s MB; load average %s\n", mb, load
    printf "  %-28s %8.0f MB per CPU-second\n", "ackscope read + decode", mb / rd
    printf "  %-28s %8.0f MB per CPU-second\n", "ackscope read only", mb / ro
    printf "  %-28s %8.0f MB per CPU-second\n", "cat > /dev/null", mb / cc
    printf "  %-28s %8.0f MB per CPU-second\n", "tcpdump -nn -r > /dev/null", mb / ct
    printf "  read + decode vs cat: %.2fx, vs tcpdump: %.1fx (CPU time)\n", cc / rd, ct / rd
    printf "  decoder alone, packets in cache: %.1f CPU ns/packet\n", dn
  }' "$out/cpu.txt"
