#!/usr/bin/env bash
# Read throughput of the capture readers (no decoding) on a warm ~200 MB classic pcap, next to `cat` and
# `tcpdump -nn -r` on the same file in the same run. Not a test: figures depend on the machine and its load.
#
#   bench/read-bench.sh [SIZE_MB] [MODE...]      (default 200 MB, mode "read"; "decode" adds the decoder)
#
# The capture is generated under ${TMPDIR:-/tmp} by replicating the records of a corpus capture (override with
# ACKSCOPE_BENCH_SOURCE / ACKSCOPE_BENCH_FILE) and is not committed. Requires a JDK 17, Maven (offline is fine once
# dependencies are cached), tcpdump, and the corpus in testdata/corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE_MB=${1:-200}
shift || true
MODES=("$@")
[ ${#MODES[@]} -eq 0 ] && MODES=(read)
SOURCE=${ACKSCOPE_BENCH_SOURCE:-testdata/corpus/zeek__206_example_b.pcap}
FILE=${ACKSCOPE_BENCH_FILE:-${TMPDIR:-/tmp}/ackscope-bench-${SIZE_MB}mb.pcap}

mvn -B -o -q -Dstyle.color=never compile dependency:build-classpath -Dmdep.outputFile=target/bench.cp >/dev/null
CP="target/classes:$(cat target/bench.cp)"
JAVA=(java -Xmx1g -XX:+UseParallelGC -cp "$CP" bench/ReadBench.java)

if [ ! -s "$FILE" ]; then
    "${JAVA[@]}" generate "$SOURCE" "$FILE" "$SIZE_MB"
fi
BYTES=$(stat -c %s "$FILE")
MB=$(awk -v b="$BYTES" 'BEGIN { printf "%.1f", b / 1e6 }')
echo "file: $FILE ($MB MB); machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# best of 3 wall-clock seconds for a command (output discarded)
best_of_3() {
    local best=""
    for _ in 1 2 3; do
        local t0 t1 s
        t0=$(date +%s%N)
        "$@" > /dev/null 2>&1
        t1=$(date +%s%N)
        s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
        if [ -z "$best" ] || awk -v s="$s" -v b="$best" 'BEGIN { exit !(s < b) }'; then best=$s; fi
    done
    echo "$best"
}

cat "$FILE" > /dev/null   # warm the page cache
CAT_S=$(best_of_3 cat "$FILE")
TCPDUMP_S=$(best_of_3 tcpdump -nn -r "$FILE")
CAT_MBPS=$(awk -v m="$MB" -v s="$CAT_S" 'BEGIN { printf "%.0f", m / s }')
TCPDUMP_MBPS=$(awk -v m="$MB" -v s="$TCPDUMP_S" 'BEGIN { printf "%.0f", m / s }')
echo "cat > /dev/null:            ${CAT_S} s  ${CAT_MBPS} MB/s"
echo "tcpdump -nn -r > /dev/null: ${TCPDUMP_S} s  ${TCPDUMP_MBPS} MB/s"

for mode in "${MODES[@]}"; do
    OUT=$("${JAVA[@]}" "$mode" "$FILE")
    echo "$OUT" | grep -v '^RESULT'
    OURS=$(echo "$OUT" | awk '/^RESULT/ { print $3 }')
    awk -v o="$OURS" -v c="$CAT_MBPS" -v t="$TCPDUMP_MBPS" -v m="$mode" \
        'BEGIN { printf "ackscope %s vs cat: %.2fx   vs tcpdump: %.2fx\n", m, o / c, o / t }'
done
