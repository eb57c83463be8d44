#!/usr/bin/env bash
# Compares two `ackscope analyze` outputs (for example of the same captures before and after a change to the code
# that writes them) and says, table by table, whether they hold the same rows (not a test; a check for a change
# that must not change the outputs):
#   - every table directory of either output (a directory holding *.parquet files, directly or below partition
#     directories such as source=.../date=...; entries named _* or .* are not part of a table) must be in both;
#   - when both sides of a table are Hive-partitioned, its partition columns (source, date) are compared as
#     columns too, so a row in another partition is a difference; when either side is flat (schema version 3 and
#     before), only the files' own columns are compared, so a flat and a partitioned output of the same captures
#     compare equal where their rows are (the layout of each side is printed);
#   - its columns (names and types, in order) must be the same;
#   - its rows must be the same multiset: DuckDB's EXCEPT ALL both ways is empty, and the row counts agree;
#     capture_files' columns that say how a run read each file (read_mode, whole_reason, splits, seek_frames,
#     seek_offsets) are left out: a run plans its splits from the files it reads, so an incremental run that reads
#     one new file reads it otherwise than a run over the whole archive does;
#   - whether its part files are also byte-for-byte identical is printed, not required: parquet-mr writes each column
#     chunk's list of encodings in the footer from a hash set of enum constants, whose order differs from one JVM
#     run to the next, so two runs of one build already differ in those bytes; when only the footers differ (the
#     pages and their indexes before the footer are the same bytes) it says "identical but for their footers";
#   - report.html must be identical once its times ("generated YYYY-MM-DD HH:MM:SS UTC") and the output directory's
#     own path (it names where its tables are) are masked.
# Prints one line per table and exits 0 when everything is equal, 1 otherwise.
#
# Usage: bench/tables-equal.sh BEFORE_DIR AFTER_DIR
# Needs: python3 with the duckdb module (PYTHON=/path/to/python to choose one, e.g. a venv with `pip install duckdb`).
set -euo pipefail
if [ "$#" -ne 2 ] || [ ! -d "$1" ] || [ ! -d "$2" ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
fi
exec "${PYTHON:-python3}" - "$1" "$2" <<'EOF'
import filecmp, os, re, sys
import duckdb

before, after = sys.argv[1], sys.argv[2]

def visible(name):
    return not name.startswith('_') and not name.startswith('.')

def parts(d, t):
    """Every Parquet file of table t of output d, as a path below the table's directory, sorted."""
    found = []
    for root, dirs, files in os.walk(os.path.join(d, t)):
        dirs[:] = [n for n in dirs if visible(n)]
        found += [os.path.relpath(os.path.join(root, f), os.path.join(d, t))
                  for f in files if visible(f) and f.endswith('.parquet')]
    return sorted(found)

def tables(d):
    return sorted(n for n in os.listdir(d)
                  if visible(n) and os.path.isdir(os.path.join(d, n)) and parts(d, n))

def partitioned(d, t):
    return any(os.sep in p for p in parts(d, t))

def data(f):
    """A Parquet file's bytes before its footer: the magic, the row groups' pages, their indexes."""
    with open(f, 'rb') as fh:
        b = fh.read()
    return b[:len(b) - 8 - int.from_bytes(b[-8:-4], 'little')]

def src(d, t, hive):
    glob = os.path.join(d, t, '**', '*.parquet').replace("'", "''")
    return "read_parquet('%s', hive_partitioning = %s, union_by_name = true)" % (glob, 'true' if hive else 'false')

con = duckdb.connect()
ok = True
names = sorted(set(tables(before)) | set(tables(after)))
for t in names:
    if t not in tables(before) or t not in tables(after):
        print('%-16s only in %s' % (t, before if t in tables(before) else after))
        ok = False
        continue
    hive = partitioned(before, t) and partitioned(after, t)
    layout = ('partitioned' if hive else 'flat' if not partitioned(before, t) and not partitioned(after, t)
              else 'flat vs partitioned, files\' columns compared')
    src_b, src_a = src(before, t, hive), src(after, t, hive)
    cols_b = con.execute('DESCRIBE SELECT * FROM ' + src_b).fetchall()
    cols_a = con.execute('DESCRIBE SELECT * FROM ' + src_a).fetchall()
    if [c[:2] for c in cols_b] != [c[:2] for c in cols_a]:
        print('%-16s columns differ: %s vs %s' % (t, [c[:2] for c in cols_b], [c[:2] for c in cols_a]))
        ok = False
        continue
    n_b = con.execute('SELECT count(*) FROM ' + src_b).fetchone()[0]
    n_a = con.execute('SELECT count(*) FROM ' + src_a).fetchone()[0]
    star = ('* EXCLUDE (read_mode, whole_reason, splits, seek_frames, seek_offsets)' if t == 'capture_files'
            else '*')
    only_b = con.execute('SELECT count(*) FROM (SELECT %s FROM %s EXCEPT ALL SELECT %s FROM %s)'
                         % (star, src_b, star, src_a)).fetchone()[0]
    only_a = con.execute('SELECT count(*) FROM (SELECT %s FROM %s EXCEPT ALL SELECT %s FROM %s)'
                         % (star, src_a, star, src_b)).fetchone()[0]
    same_parts = parts(before, t) == parts(after, t)
    same_bytes = same_parts and all(
        filecmp.cmp(os.path.join(before, t, f), os.path.join(after, t, f), shallow=False) for f in parts(before, t))
    same_data = same_bytes or same_parts and all(
        data(os.path.join(before, t, f)) == data(os.path.join(after, t, f)) for f in parts(before, t))
    equal = n_b == n_a and only_b == 0 and only_a == 0
    ok &= equal
    print('%-16s %s: %d rows before, %d after; EXCEPT ALL: %d only before, %d only after; part files %s; %s'
          % (t, 'equal' if equal else 'DIFFERENT', n_b, n_a, only_b, only_a,
             'byte-for-byte identical' if same_bytes
             else 'identical but for their footers' if same_data else 'differ in bytes', layout))

def page(d):
    p = os.path.join(d, 'report.html')
    if not os.path.exists(p):
        return None
    with open(p, encoding='utf-8') as f:
        text = f.read().replace(os.path.abspath(d).rstrip('/'), '<out>')
        return re.sub(r'generated \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC', 'generated <time>', text)

pb, pa = page(before), page(after)
if pb is None and pa is None:
    print('report.html      in neither')
elif pb == pa:
    print('report.html      identical but for its times')
else:
    ok = False
    lb, la = (pb or '').splitlines(), (pa or '').splitlines()
    first = next((i for i in range(min(len(lb), len(la))) if lb[i] != la[i]), min(len(lb), len(la)))
    print('report.html      DIFFERENT from line %d' % (first + 1))
print('all equal' if ok else 'NOT EQUAL')
sys.exit(0 if ok else 1)
EOF
