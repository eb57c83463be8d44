#!/usr/bin/env bash
# Read + decode throughput of a warm ~200 MB capture, with `cat` and `tcpdump -nn -r` on the same file in the same
# run for scale. Not a test: numbers depend on the machine and its load.
#
#   bench/decode-throughput.sh [CAPTURE]
#
# Without CAPTURE, target/bench/mix.pcap is made (once) by appending the corpus's full-size classic Ethernet captures
# to each other until the file reaches 200 MB (real traffic: HTTP downloads with retransmissions, SSH, FTP, DNS,
# VLAN/QinQ/MPLS, IPv6). The JMH benchmark is io.ackscope.decode.DecodeBenchmark (src/jmh/java), run with -prof gc.
# Because the machine may be shared, the same passes are also timed in CPU time (DecodeCpuTime; user+sys for cat and
# tcpdump): MB per CPU-second is far less disturbed by other load than wall-clock MB/s.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out=target/bench
mkdir -p "$out"
capture="${1:-$out/mix.pcap}"
corpus="${ACKSCOPE_CORPUS:-$root/../shared/corpus}"

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
bytes=$(stat -c %s "$capture")
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')

mvn -B -o -q -DskipTests compile
mvn -B -o -q dependency:build-classpath -Dmdep.outputFile="$out/classpath.txt" >/dev/null
m2="${HOME}/.m2/repository"
jmh_version=1.37
jmh_core="$m2/org/openjdk/jmh/jmh-core/$jmh_version/jmh-core-$jmh_version.jar"
jmh_ann="$m2/org/openjdk/jmh/jmh-generator-annprocess/$jmh_version/jmh-generator-annprocess-$jmh_version.jar"
if [ ! -f "$jmh_core" ] || [ ! -f "$jmh_ann" ]; then
  mvn -B -q dependency:get -Dartifact=org.openjdk.jmh:jmh-core:$jmh_version
  mvn -B -q dependency:get -Dartifact=org.openjdk.jmh:jmh-generator-annprocess:$jmh_version
fi
jmh_cp="$jmh_core:$m2/net/sf/jopt-simple/jopt-simple/5.0.4/jopt-simple-5.0.4.jar:$m2/org/apache/commons/commons-math3/3.6.1/commons-math3-3.6.1.jar"
rm -rf "$out/jmh-classes"
mkdir -p "$out/jmh-classes"
javac -d "$out/jmh-classes" -cp "target/classes:$jmh_cp" -processorpath "$jmh_ann:$jmh_cp" \
  $(find src/jmh/java -name '*.java')
cp="$out/jmh-classes:target/classes:$(cat "$out/classpath.txt"):$jmh_cp"

# warm the page cache, then time cat and tcpdump: best of 3, wall clock and CPU (user + sys)
cat "$capture" > /dev/null
best() { # wall|cpu command... -> best time in seconds
  local what=$1 b=999999 t
  shift
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %U %S" -o "$out/time.txt" "$@" > /dev/null 2>&1 || true
    t=$(tail -1 "$out/time.txt" | awk -v w="$what" '{ print (w == "wall") ? $1 : $2 + $3 }')
    b=$(awk -v b="$b" -v t="$t" 'BEGIN { print (t < b) ? t : b }')
  done
  echo "$b"
}
cat_s=$(best wall cat "$capture")
cat_cpu=$(best cpu cat "$capture")
tcpdump_s=$(best wall tcpdump -nn -r "$capture")
tcpdump_cpu=$(best cpu tcpdump -nn -r "$capture")
java -Xms1g -Xmx1g -cp "$cp" io.ackscope.decode.DecodeCpuTime "$capture" 10 | tee "$out/cpu.txt"

java -cp "$cp" org.openjdk.jmh.Main 'io.ackscope.decode.DecodeBenchmark' -p capture="$capture" -prof gc \
  -rf csv -rff "$out/jmh.csv" | tee "$out/jmh.txt"

score() { # benchmark name -> score (ms/op or ns/op) from the CSV
  awk -F, -v n="\"io.ackscope.decode.DecodeBenchmark.$1\"" '$1 == n { print $5 }' "$out/jmh.csv"
}
alloc() { # benchmark name -> gc.alloc.rate.norm (B/op)
  awk -F, -v n="\"io.ackscope.decode.DecodeBenchmark.$1:gc.alloc.rate.norm\"" '$1 == n { print $5 }' "$out/jmh.csv"
}
rd_ms=$(score readAndDecode)
ro_ms=$(score readOnly)
echo
echo "capture: $capture, $mb MB, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
cpu_rd=$(awk '$2 == "readAndDecode" { print $3 }' "$out/cpu.txt")
cpu_ro=$(awk '$2 == "readOnly" { print $3 }' "$out/cpu.txt")
cpu_dn=$(awk '$2 == "decodeOnly" { print $3 }' "$out/cpu.txt")
awk -v mb="$mb" -v rd="$rd_ms" -v ro="$ro_ms" -v c="$cat_s" -v t="$tcpdump_s" -v dn="$(score decodeOnly)" \
    -v da="$(alloc decodeOnly)" -v crd="$cpu_rd" -v cro="$cpu_ro" -v cc="$cat_cpu" -v ct="$tcpdump_cpu" \
    -v cdn="$cpu_dn" 'BEGIN {
  rdr = mb / (rd / 1000); ror = mb / (ro / 1000); cr = mb / c; tr = mb / t
  printf "  %-28s %12s %14s\n", "", "wall MB/s", "MB per CPU-s"
  printf "  %-28s %12.0f %14.0f\n", "ackscope read + decode", rdr, mb / crd
  printf "  %-28s %12.0f %14.0f\n", "ackscope read only", ror, mb / cro
  printf "  %-28s %12.0f %14.0f\n", "cat > /dev/null", cr, mb / cc
  printf "  %-28s %12.0f %14.0f\n", "tcpdump -nn -r > /dev/null", tr, mb / ct
  printf "  read + decode vs cat: %.2fx wall, %.2fx CPU;  vs tcpdump: %.1fx wall, %.1fx CPU\n", rdr / cr,
      cc / crd, rdr / tr, ct / crd
  printf "  decoder alone: %.1f ns/packet wall, %.1f ns/packet CPU, %s B/packet allocated (gc.alloc.rate.norm)\n",
      dn, cdn, da
}'
