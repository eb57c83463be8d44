#!/usr/bin/env python3
"""A network path with a fixed one-way delay and deterministic losses, between two TAP devices (jobs/lab-two-points).

This kernel has no netem, so the path is made in user space: the forwarder creates TAP devices A (the client's
end) and B (the server's end), prints "ready" once both exist (the lab then moves each into its own network
namespace), and copies every Ethernet frame from one to the other after a fixed delay per direction. Losses are
deterministic, so a capture at each end can be checked against them: in each direction, every N-th IPv4/TCP frame
that carries payload is dropped (the N-th, 2N-th, ...; counted per direction from the start).

  --a NAME --b NAME      the two TAP devices (created here)
  --delay-ab-ms D        A to B one-way delay (default 5)
  --delay-ba-ms D        B to A one-way delay (default 5)
  --drop-ab N            drop every N-th A-to-B TCP frame with payload (0: none)
  --drop-ba N            the same from B to A
  --duration S           exit after S seconds (a bound; the lab stops it earlier with SIGTERM)
  --log FILE             one line per dropped frame: direction, IPv4 src:port > dst:port, seq, payload length

On exit it prints one JSON line to stdout: frames forwarded and dropped per direction, and the delay actually
applied per direction (median and largest, milliseconds, from the read of a frame to its write).
"""
import argparse
import heapq
import json
import os
import select
import signal
import socket
import struct
import sys
import time

from tap import open_tap   # this folder's module: python puts the script's folder on the path

SPIN = 0.0007  # seconds before a frame is due that the loop polls instead of sleeping



def tcp_payload(frame):
    """(src, sport, dst, dport, seq, payload length) of an Ethernet IPv4/TCP frame, else None."""
    if len(frame) < 54 or frame[12:14] != b"\x08\x00" or frame[23] != 6:
        return None
    ihl = (frame[14] & 0x0F) * 4
    t = 14 + ihl
    if len(frame) < t + 20:
        return None
    total = struct.unpack_from("!H", frame, 16)[0]
    sport, dport, seq = struct.unpack_from("!HHI", frame, t)
    off = (frame[t + 12] >> 4) * 4
    length = max(0, total - ihl - off)
    return socket.inet_ntoa(frame[26:30]), sport, socket.inet_ntoa(frame[30:34]), dport, seq, length


class Direction:
    """One direction of the path: its delay, its drop rule and its counts."""

    def __init__(self, name, delay_ms, every):
        self.name, self.delay, self.every = name, delay_ms / 1000.0, every
        self.data_frames = self.forwarded = self.dropped = 0
        self.applied = []

    def drop(self, frame, log):
        t = tcp_payload(frame)
        if t is None or t[5] == 0 or self.every <= 0:
            return False
        self.data_frames += 1
        if self.data_frames % self.every:
            return False
        self.dropped += 1
        if log:
            log.write(f"{self.name} {t[0]}:{t[1]} > {t[2]}:{t[3]} seq {t[4]} len {t[5]}\n")
        return True

    def summary(self):
        a = sorted(self.applied)
        med = a[len(a) // 2] * 1000 if a else 0.0
        top = a[-1] * 1000 if a else 0.0
        return {"forwarded": self.forwarded, "dropped": self.dropped, "data_frames": self.data_frames,
                "delay_ms": round(self.delay * 1000, 3), "applied_p50_ms": round(med, 3),
                "applied_max_ms": round(top, 3)}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--a", required=True)
    p.add_argument("--b", required=True)
    p.add_argument("--delay-ab-ms", type=float, default=5.0)
    p.add_argument("--delay-ba-ms", type=float, default=5.0)
    p.add_argument("--drop-ab", type=int, default=0)
    p.add_argument("--drop-ba", type=int, default=0)
    p.add_argument("--duration", type=float, default=120.0)
    p.add_argument("--log")
    args = p.parse_args()
    if min(args.delay_ab_ms, args.delay_ba_ms) < 0 or min(args.drop_ab, args.drop_ba) < 0 or args.duration <= 0:
        p.error("delays and drop counts must be 0 or more, the duration above 0")
    fa, fb = open_tap(args.a), open_tap(args.b)
    dirs = {fa: (Direction("a>b", args.delay_ab_ms, args.drop_ab), fb),
            fb: (Direction("b>a", args.delay_ba_ms, args.drop_ba), fa)}
    log = open(args.log, "w", encoding="ascii") if args.log else None
    print("ready", flush=True)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    deadline = time.monotonic() + args.duration
    queue, order = [], 0
    while not stop and time.monotonic() < deadline:
        now = time.monotonic()
        while queue and queue[0][0] <= now:
            _, _, read_at, d, out, frame = heapq.heappop(queue)
            try:
                os.write(out, frame)
                d.forwarded += 1
                d.applied.append(time.monotonic() - read_at)
            except OSError:
                pass  # the device is down or its queue full: lost, as on a wire
        # sleep until SPIN before the next frame is due, then poll: a sleep's wake-up on a busy machine overshoots
        # by a few hundred microseconds, a poll does not
        timeout = min(0.2, max(0.0, queue[0][0] - now - SPIN)) if queue else 0.2
        try:
            ready, _, _ = select.select([fa, fb], [], [], timeout)
        except InterruptedError:
            continue
        for fd in ready:
            d, out = dirs[fd]
            for _ in range(64):
                try:
                    frame = os.read(fd, 65536)
                except OSError:
                    break
                if d.drop(frame, log):
                    continue
                read_at = time.monotonic()
                order += 1
                heapq.heappush(queue, (read_at + d.delay, order, read_at, d, out, frame))
    if log:
        log.close()
    print(json.dumps({d.name: d.summary() for d, _ in dirs.values()}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
