#!/usr/bin/env bash
# Memory of ackscope conv and analyze on SYN scans (issue 15), against tshark.
#   bench/syn-flood-bench.sh [N...]        default: 500000 5000000
# For each N, writes a scan capture of N connection attempts (SynScanCapture: 2,000 SYNs a second from distinct
# source addresses and ports, 10% answered SYN/ACK + RST, 10% RST/ACK, 5% retransmitted) into a temporary directory,
# then runs `conv`, `analyze` (tables and report.html) and `report` alone on its output, with a 256 MB heap
# (N <= 500000) or 512 MB, and reports wall time, peak RSS, the heap's highest occupancy after a collection (the
# live data) and before one (GC log), connections and evictions;
# tshark -z conv,tcp on captures of at most 500000 attempts for comparison (it needs about 2.2 KB per connection).
# Needs the packaged jar and test classes (it builds them).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(500000 5000000)
if [ ! -f target/ackscope.jar ] || [ ! -f target/test-classes/io/ackscope/tcp/SynScanCapture.class ]; then
  mvn -B -q -DskipTests -Dackscope.cds.skip=true package
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# heap figures from a -Xlog:gc log: "before->after(committed)" per collection, in MB
heap() {
  grep -o '[0-9]*M->[0-9]*M' "$1" | awk -F'->' '{b=$1; a=$2; gsub("M","",b); gsub("M","",a);
    if (b+0>mb) mb=b+0; if (a+0>ma) ma=a+0} END {printf "live peak %d MB, peak before GC %d MB", ma, mb}'
}

row() {   # label, time file, gc log
  printf '%-34s %7s s  RSS %5d MB  %s\n' "$1" "$(awk '{print $1}' "$2")" "$(( $(awk '{print $2}' "$2") / 1024 ))" \
    "$( [ -n "${3:-}" ] && heap "$3" )"
}

for n in "${sizes[@]}"; do
  f="$work/scan-$n.pcap"
  java -cp target/test-classes io.ackscope.tcp.SynScanCapture "$n" "$f"
  xmx=512m
  [ "$n" -le 500000 ] && xmx=256m
  echo "== $n attempts: $(du -m "$f" | cut -f1) MB, heap -Xmx$xmx"
  /usr/bin/time -o "$work/t" -f '%e %M' java -Xmx$xmx -XX:+UseParallelGC -Xlog:gc:file="$work/gc-conv" \
    -jar target/ackscope.jar conv -r "$f" > "$work/conv.tsv" 2> "$work/conv.err"
  row "conv" "$work/t" "$work/gc-conv"
  echo "  rows $(($(wc -l < "$work/conv.tsv") - 1)); $(cat "$work/conv.err")"
  rm -rf "$work/out"
  JAVA_OPTS="-Xmx$xmx -Xlog:gc:file=$work/gc-analyze" /usr/bin/time -o "$work/t" -f '%e %M' \
    jobs/ackscope analyze "$f" --out "$work/out" > "$work/analyze.txt" 2>&1
  row "analyze" "$work/t" "$work/gc-analyze"
  grep -E 'connections in|unanswered|  connections ' "$work/analyze.txt" | sed 's/^/  /'
  echo "  report.html $( [ -f "$work/out/report.html" ] && echo written || echo MISSING)"
  # the page alone, from the tables just written, with the same heap
  JAVA_OPTS="-Xmx$xmx -XX:+UseParallelGC -Xlog:gc:file=$work/gc-report" /usr/bin/time -o "$work/t" -f '%e %M' \
    jobs/ackscope report "$work/out" --out "$work/report.html" > "$work/report.txt" 2>&1 || cat "$work/report.txt"
  row "report (the page alone)" "$work/t" "$work/gc-report"
  if [ "$n" -le 500000 ] && command -v tshark > /dev/null; then
    /usr/bin/time -o "$work/t" -f '%e %M' tshark -n -r "$f" -q -z conv,tcp > /dev/null 2>&1
    row "tshark -q -z conv,tcp" "$work/t"
  fi
  rm -f "$f"
done
