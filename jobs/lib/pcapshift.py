#!/usr/bin/env python3
"""Rewrites the record timestamps of a classic pcap file as if another clock had stamped them (jobs/lab-two-points).

  pcapshift.py IN OUT --offset-us O [--drift-ppm P]

Each record's time t becomes t + O + P * (t - t0) / 1e6, where t0 is the first record's time: a clock O
microseconds ahead of the capturing one at the first record, running P parts per million fast. Microsecond and
nanosecond pcap, either byte order; pcapng is refused (tcpdump -w writes classic pcap). Only the timestamps change.
"""
import argparse
import struct
import sys

MAGICS = {b"\xd4\xc3\xb2\xa1": ("<", 1000), b"\xa1\xb2\xc3\xd4": (">", 1000),
          b"\x4d\x3c\xb2\xa1": ("<", 1), b"\xa1\xb2\x3c\x4d": (">", 1)}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--offset-us", type=int, required=True)
    p.add_argument("--drift-ppm", type=float, default=0.0)
    args = p.parse_args()
    with open(args.input, "rb") as f:
        data = f.read()
    if len(data) < 24 or data[:4] not in MAGICS:
        sys.exit(f"pcapshift: {args.input}: not a classic pcap file")
    endian, ns_per_unit = MAGICS[data[:4]]
    unit = 1_000_000_000 // ns_per_unit  # sub-second units per second
    out = bytearray(data[:24])
    pos, t0, records = 24, None, 0
    while pos + 16 <= len(data):
        sec, frac, incl, orig = struct.unpack_from(endian + "IIII", data, pos)
        if pos + 16 + incl > len(data):
            sys.exit(f"pcapshift: {args.input}: byte {pos}: record cut short")
        t = (sec * unit + frac) * ns_per_unit
        if t0 is None:
            t0 = t
        shifted = t + args.offset_us * 1000 + round(args.drift_ppm * (t - t0) / 1e6)
        if shifted < 0:
            sys.exit(f"pcapshift: {args.input}: byte {pos}: shifted before 1970")
        sec, frac = divmod(shifted // ns_per_unit, unit)
        out += struct.pack(endian + "IIII", sec, frac, incl, orig)
        out += data[pos + 16:pos + 16 + incl]
        pos += 16 + incl
        records += 1
    if pos != len(data):
        sys.exit(f"pcapshift: {args.input}: byte {pos}: trailing bytes")
    with open(args.output, "wb") as f:
        f.write(out)
    print(f"pcapshift: {records} records shifted by {args.offset_us} us, drift {args.drift_ppm} ppm")
    return 0


if __name__ == "__main__":
    sys.exit(main())
