"""Opens an `ackscope analyze` output directory for reading, as `ackscope report` does: only a complete one.

An output is complete when its `_SUCCESS` marker parses as JSON, says `"tool": "ackscope"`, names its tables, and
each of them is a directory there. A run that was interrupted leaves no such marker (it renames the marker into
place last); `ackscope report DIR` or the next `ackscope analyze --out DIR` completes or removes what it left.

    python3 ackscope_output.py DIR     # prints the tables, or the reason and exit status 1
"""
import json
import os
import sys


def complete_tables(out):
    """The tables of the complete output `out`, as {name: directory}; ValueError naming what is missing."""
    marker = os.path.join(out, "_SUCCESS")
    prefix = f"{out} is not a complete ackscope analyze output"
    try:
        with open(marker, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        interrupted = os.path.isdir(out) and any(n.startswith("_ackscope_staging_") for n in os.listdir(out))
        hint = (f"; an analyze run on it was interrupted: ackscope report {out} or the next analyze --out {out} "
                "completes or removes it") if interrupted else ""
        raise ValueError(f"{prefix} (no _SUCCESS marker{hint})") from None
    try:
        summary = json.loads(text)
    except ValueError as e:
        raise ValueError(f"{prefix}: {marker} is not JSON ({e})") from None
    if not isinstance(summary, dict) or summary.get("tool") != "ackscope":
        raise ValueError(f"{prefix}: {marker} was not written by ackscope")
    tables = summary.get("tables")
    if not isinstance(tables, dict) or not tables:
        raise ValueError(f"{prefix}: {marker} names no tables")
    found = {}
    for name in tables:
        path = os.path.join(out, name)
        if not os.path.isdir(path):
            raise ValueError(f"{prefix}: table {name} is missing")
        found[name] = path
    return found


if __name__ == "__main__":
    try:
        for name, path in complete_tables(sys.argv[1]).items():
            print(name, path)
    except ValueError as e:
        print(e, file=sys.stderr)
        sys.exit(1)
