#!/usr/bin/env bash
# Incremental-run benchmark of `ackscope analyze` (not a test): what adding one file to an analysed archive of
# 1,000 files costs, against analysing that one file alone (issue 21: about the same, not the archive's cost).
#   1. the archive: one source (the directory edge-1), --files + 1 rotated capture files cut by editcap, every N
#      frames, from a classic pcap of --size-mb (default 100: about 100 KB a file) that bench/ReadBench.java
#      generates from the bundled sample-pcaps/nginx-nodelay-on.pcap.gz (its 40,000 records replicated, timestamps
#      shifted; --size-mb 0 cuts the sample itself: 39 frames a file), or from --capture FILE; named as
#      `tcpdump -G 300 -w edge-1-%Y%m%d-%H%M%S.pcap` names its files (the second of each file's first record, and
#      a counter), so they sort in time; the last one is held back;
#   2. times `jobs/ackscope analyze ARCHIVE --out OUT --incremental --settle 0` over the first --files files (the
#      whole command: JVM and Spark start, tables, report.html; --incremental so that the output keeps the state a
#      later run goes on from);
#   3. adds the held-back file to the archive and times `jobs/ackscope analyze ARCHIVE --out OUT --incremental
#      --settle 0` (only the new file is read; the source's held state carries the open connections);
#   4. times a one-shot `jobs/ackscope analyze FILE --out EMPTY` of only that file into an empty output;
#   5. prints the three times and the ratio incremental / one-shot (target: about 1, far below whole / one-shot);
#      with --check, also analyses all --files + 1 files in one run and compares its tables with the incremental
#      output's (bench/tables-equal.sh; needs python3 with duckdb).
# Step 3 needs `analyze --incremental` (issue 21); a build without it says so and skips steps 3 and 5's ratio.
# Each step is timed once (--runs N: N rounds, each from an empty output, medians printed).
# Scratch files live in --work (default a new /tmp directory, deleted at the end unless --keep); never commit them.
#
#   --distinct: each replica of the sample gets other client ports (bench/ReadBench.java), so connections end as
#      in real traffic; without it the sample's 21 connections run through the whole archive, and every run carries
#      their exact latency values so far (the state grows with their history: 29 MB after 1 GB).
# Usage: bench/incremental-bench.sh [--files 1000] [--size-mb 100] [--runs 1] [--heap-mb 2048] [--capture FILE]
#                                   [--distinct] [--sample NAME] [--check] [--work DIR] [--keep]
#   --sample NAME: the sample-pcaps capture replicated (default nginx-nodelay-on.pcap.gz, whose wrk connections never
#      close in the capture; lab-cause-churn.pcap.gz's 60 connections each end).
# Needs: java 17, maven (builds the jar once), editcap and capinfos (Debian wireshark-common).
# The machine may be shared: the script prints nproc and the load average before and after.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
files=1000 size_mb=100 runs=1 heap_mb=2048 capture="" check=0 work="" keep=0 distinct=0
sample_name=nginx-nodelay-on.pcap.gz
while [ "$#" -gt 0 ]; do
  case "$1" in
    --files) files="$2"; shift 2 ;;
    --size-mb) size_mb="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --heap-mb) heap_mb="$2"; shift 2 ;;
    --capture) capture="$2"; shift 2 ;;
    --check) check=1; shift ;;
    --distinct) distinct=1; shift ;;
    --sample) sample_name="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
for tool in java mvn editcap capinfos; do
  command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }
done
work="${work:-$(mktemp -d /tmp/ackscope-incremental-bench.XXXXXX)}"
mkdir -p "$work"
cleanup() {
  if [ "$keep" = 0 ]; then rm -rf "$work"; else echo "kept $work"; fi
}
trap cleanup EXIT
echo "== machine: $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg); build $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '(not a git checkout)')$(git -C "$root" diff --quiet HEAD -- src pom.xml 2>/dev/null || echo '+changes')"
# (re)built when missing or older than the sources: the figures are of the build named above
if [ ! -f "$root/target/ackscope.jar" ] || [ ! -d "$root/target/lib" ] \
    || [ -n "$(find "$root/src/main" "$root/pom.xml" -newer "$root/target/ackscope.jar" -print -quit)" ]; then
  "$root/jobs/build" ackscope
fi
export SPARK_LOCAL_IP=127.0.0.1
ackscope() { JAVA_OPTS="-Xmx${heap_mb}m" "$root/jobs/ackscope" "$@"; }

# ---- 1. the archive ---------------------------------------------------------------------------------------------
sample="$root/sample-pcaps/$sample_name"
if [ -z "$capture" ] && [ "$size_mb" = 0 ]; then
  capture="$sample"
elif [ -z "$capture" ]; then
  capture="$work/traffic.pcap"
  (cd "$root" && mvn -B -o -q compile dependency:build-classpath -Dmdep.outputFile=target/bench.cp >/dev/null)
  java -Xmx1g -cp "$root/target/classes:$(cat "$root/target/bench.cp")" "$root/bench/ReadBench.java" generate \
    "$sample" "$capture" "$size_mb" $([ "$distinct" = 1 ] && echo distinct)
fi
frames=$(capinfos -c -M "$capture" | awk '/Number of packets/ {print $4}')
per_file=$(( frames / (files + 1) ))
[ "$per_file" -ge 1 ] || { echo "$capture has $frames frames, fewer than $((files + 1)) files" >&2; exit 1; }
rm -rf "$work/cut" "$work/archive" "$work/held"
mkdir -p "$work/cut" "$work/archive/edge-1" "$work/held/edge-1"
# classic pcap, as tcpdump writes; editcap's own names (out_00000_TIME.pcap) sort in time
editcap -F pcap -c "$per_file" "$capture" "$work/cut/out.pcap"
i=0
for f in $(ls "$work/cut" | sort); do
  if [ "$i" -gt "$files" ]; then
    rm "$work/cut/$f"          # the frames left over after files + 1 files of per_file frames
    continue
  fi
  stamp=${f#out_*_}               # editcap's YYYYMMDDHHMMSS of the file's first record
  stamp=${stamp%.pcap}
  # as tcpdump -G names by the second, plus a counter: the sample's 40,000 frames span about a second
  name="edge-1-${stamp:0:8}-${stamp:8:6}-$(printf %04d "$i").pcap"
  if [ "$i" -lt "$files" ]; then mv "$work/cut/$f" "$work/archive/edge-1/$name"; else mv "$work/cut/$f" "$work/held/edge-1/$name"; fi
  i=$((i + 1))
done
new_file=$(ls "$work/held/edge-1")
echo "== archive: $files files of $per_file frames in source edge-1 ($(du -sb "$work/archive" | cut -f1) bytes), held back: $new_file"

# ---- 2.-4. timings ----------------------------------------------------------------------------------------------
has_incremental=1
ackscope analyze --help 2>&1 | grep -q -- --incremental || has_incremental=0
[ "$has_incremental" = 1 ] || echo "== this build's analyze has no --incremental (issue 21 adds it): step 3 skipped"

timed() { # label command...: runs it once, appends its seconds to $work/LABEL.secs, keeps its output
  local label=$1 t0 t1
  shift
  t0=$(date +%s%N)
  "$@" > "$work/$label.out" 2> "$work/$label.err" \
    || { echo "$label failed; see $work/$label.err" >&2; tail -5 "$work/$label.err" >&2; exit 1; }
  t1=$(date +%s%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", (b - a) / 1e9 }' | tee -a "$work/$label.secs" \
    | sed "s/^/$label: /; s/$/ s/"
}
rm -f "$work"/*.secs
for round in $(seq 1 "$runs"); do
  echo "== round $round"
  rm -rf "$work/out" "$work/one" "$work/archive/edge-1/$new_file"
  # the first analysis is an incremental run too: a run without --incremental keeps no state to go on from
  timed whole ackscope analyze "$work/archive" --out "$work/out" $([ "$has_incremental" = 1 ] && echo --incremental --settle 0)
  if [ "$has_incremental" = 1 ]; then
    cp -p "$work/held/edge-1/$new_file" "$work/archive/edge-1/$new_file"
    timed incremental ackscope analyze "$work/archive" --out "$work/out" --incremental --settle 0
  fi
  timed one-shot ackscope analyze "$work/held/edge-1/$new_file" --out "$work/one"
done

median() { sort -n "$work/$1.secs" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
whole=$(median whole) one=$(median one-shot)
echo "== medians of $runs round(s): analyze of $files files $whole s; one-shot of the one new file $one s"
if [ "$has_incremental" = 1 ]; then
  inc=$(median incremental)
  echo "== incremental run adding file $((files + 1)): $inc s; incremental / one-shot = $(awk -v a="$inc" -v b="$one" 'BEGIN { printf "%.2f", a / b }'); whole / one-shot = $(awk -v a="$whole" -v b="$one" 'BEGIN { printf "%.2f", a / b }')"
  grep -h -i -E "nothing new|adding|reading all|held" "$work/incremental.out" "$work/incremental.err" | head -5 || true
fi

# ---- 5. optional check: the incremental output equals one run over all files ------------------------------------
if [ "$check" = 1 ] && [ "$has_incremental" = 1 ]; then
  ackscope analyze "$work/archive" --out "$work/all" > "$work/all.out" 2> "$work/all.err"
  "$root/bench/tables-equal.sh" "$work/all" "$work/out" || true
fi
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
