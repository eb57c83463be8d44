#!/usr/bin/env python3
"""A two-port Ethernet "wire" between two TAP devices, for the cause labs (jobs/lab-causes).

This kernel has no netem, so the delay and the deterministic losses a lab needs are made here, in user space: the
forwarder creates TAP devices A (the client's side) and B (the server's side), prints "ready" once both exist (the lab
then moves each into its namespace), and copies every frame from one to the other, after a fixed delay each way,
dropping only what the options ask for:

  --delay-ms D         one-way delay added in each direction (the round trip gains 2 D)
  --drop-syn N         per connection, the first N SYNs (A to B) are dropped: connect costs 1 s, 3 s, ... + RTT
  --drop-synack N      per connection, the first N SYN/ACKs (B to A) are dropped
  --drop-resp SPEC     on B-to-A HTTP responses: "every=K,index=I,offset=O|tail,times=T" drops, in each response
                       number r (1-based on its connection) with r % K == I, the segment holding byte O of the
                       response (header included; "tail" = its last byte), T times: the original and the next
                       T-1 retransmissions that hold that byte. May be given more than once.
  --rate-kbit R        B to A only: a bottleneck of R kbit/s with a FIFO in front of it (a home router's uplink,
                       the other way round): each frame waits for the ones before it, then for its own time on the
                       link; the FIFO holds at most --queue-ms of waiting, beyond which frames are dropped (tail
                       drop). In user space, so the sender's TCP small queues do not limit it as they limit a
                       qdisc (tbf) on the sender's own device.
  --queue-ms Q         the FIFO's limit in milliseconds of waiting (default 400)
  --duration S         exit after S seconds (a bound; the lab stops it earlier with SIGTERM)

On exit it prints one line of counts (frames forwarded and dropped by rule) to stdout. Only IPv4/TCP is inspected;
every other frame (ARP included) is forwarded with the same delay.
"""
import argparse
import heapq
import os
import select
import signal
import struct
import sys
import time

from tap import open_tap   # this folder's module: python puts the script's folder on the path

SYN, ACK = 0x02, 0x10



def tcp_of(frame):
    """(src, sport, dst, dport, flags, seq, payload offset, payload length) of an IPv4/TCP frame, else None."""
    if len(frame) < 34 or frame[12:14] != b"\x08\x00":
        return None
    ihl = (frame[14] & 0x0F) * 4
    if frame[23] != 6 or len(frame) < 14 + ihl + 20:
        return None
    total = struct.unpack_from("!H", frame, 16)[0]
    t = 14 + ihl
    sport, dport, seq = struct.unpack_from("!HHI", frame, t)
    off = (frame[t + 12] >> 4) * 4
    flags = frame[t + 13]
    start = t + off
    length = max(0, min(total + 14, len(frame)) - start)
    return frame[26:30], sport, frame[30:34], dport, flags, seq, start, length


def parse_spec(text):
    spec = {"every": 1, "index": 0, "offset": "tail", "times": 1}
    for part in text.split(","):
        key, _, value = part.partition("=")
        if key not in spec:
            raise SystemExit(f"tapfwd: --drop-resp: unknown key {key!r} in {text!r}")
        spec[key] = value if key == "offset" and value == "tail" else int(value)
    if spec["every"] < 1 or spec["times"] < 1:
        raise SystemExit(f"tapfwd: --drop-resp: every and times must be 1 or more: {text!r}")
    spec["index"] %= spec["every"]
    return spec


def in_range(byte, seq, length):
    return (byte - seq) % (1 << 32) < length


class Rules:
    """The drop decisions; per-connection state keyed by the 4-tuple as seen from B (the server)."""

    def __init__(self, args):
        self.drop_syn, self.drop_synack = args.drop_syn, args.drop_synack
        self.specs = [parse_spec(s) for s in args.drop_resp]
        self.syns, self.synacks, self.flows = {}, {}, {}
        self.counts = {"forwarded": 0, "syn": 0, "synack": 0, "resp": 0, "queue": 0}

    def drop(self, frame, from_a):
        t = tcp_of(frame)
        if t is None:
            return False
        src, sport, dst, dport, flags, seq, start, length = t
        if flags & (SYN | ACK) == SYN and from_a:
            return self._first_n(self.syns, (src, sport, dst, dport), self.drop_syn, "syn")
        if flags & (SYN | ACK) == SYN | ACK and not from_a:
            return self._first_n(self.synacks, (dst, dport, src, sport), self.drop_synack, "synack")
        if from_a or length == 0 or not self.specs:
            return False
        return self._response_drop((dst, dport, src, sport), frame, seq, start, length)

    def _first_n(self, table, key, n, kind):
        seen = table.get(key, 0) + 1
        table[key] = seen
        if seen <= n:
            self.counts[kind] += 1
            return True
        return False

    def _response_drop(self, key, frame, seq, start, length):
        flow = self.flows.setdefault(key, {"next": None, "responses": 0, "targets": {}})
        new = flow["next"] is None or in_range(seq, flow["next"], 1 << 31) or seq == flow["next"]
        if new and frame[start:start + 7] == b"HTTP/1.":
            self._new_response(flow, frame[start:start + length], seq)
        if new:
            end = (seq + length) % (1 << 32)
            if flow["next"] is None or in_range(end, flow["next"], 1 << 31):
                flow["next"] = end
        for byte, left in list(flow["targets"].items()):
            if left > 0 and in_range(byte, seq, length):
                flow["targets"][byte] = left - 1
                self.counts["resp"] += 1
                return True
        return False

    def _new_response(self, flow, payload, seq):
        flow["responses"] += 1
        r = flow["responses"]
        head, sep, _ = payload.partition(b"\r\n\r\n")
        size = None
        if sep:
            for line in head.split(b"\r\n"):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length" and value.strip().isdigit():
                    size = len(head) + 4 + int(value.strip())
        for spec in self.specs:
            if r % spec["every"] != spec["index"]:
                continue
            offset = -1 if spec["offset"] == "tail" else spec["offset"]
            if offset < 0:
                if size is None:
                    continue  # no Content-Length in the first segment: nothing to aim at
                offset += size
            flow["targets"][(seq + offset) % (1 << 32)] = spec["times"]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--a", required=True)
    p.add_argument("--b", required=True)
    p.add_argument("--delay-ms", type=float, default=0.0)
    p.add_argument("--drop-syn", type=int, default=0)
    p.add_argument("--drop-synack", type=int, default=0)
    p.add_argument("--drop-resp", action="append", default=[])
    p.add_argument("--rate-kbit", type=float, default=0.0)
    p.add_argument("--queue-ms", type=float, default=400.0)
    p.add_argument("--duration", type=float, default=120.0)
    args = p.parse_args()
    rules = Rules(args)
    fa, fb = open_tap(args.a), open_tap(args.b)
    print("ready", flush=True)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    delay = args.delay_ms / 1000.0
    deadline = time.monotonic() + args.duration
    queue, order, busy_until = [], 0, 0.0
    while not stop and time.monotonic() < deadline:
        now = time.monotonic()
        while queue and queue[0][0] <= now:
            _, _, out, frame = heapq.heappop(queue)
            try:
                os.write(out, frame)
            except (BlockingIOError, OSError):
                pass  # the device is down or its queue full: the frame is lost, as on a wire
        timeout = max(0.0, queue[0][0] - now) if queue else 0.2
        try:
            ready, _, _ = select.select([fa, fb], [], [], min(timeout, 0.2))
        except InterruptedError:
            continue
        for fd in ready:
            for _ in range(64):
                try:
                    frame = os.read(fd, 65536)
                except (BlockingIOError, OSError):
                    break
                if rules.drop(frame, fd == fa):
                    continue
                now = time.monotonic()
                release = now
                if args.rate_kbit and fd == fb:
                    start = max(now, busy_until)
                    if start - now > args.queue_ms / 1000.0:
                        rules.counts["queue"] += 1
                        continue
                    busy_until = start + len(frame) * 8 / (args.rate_kbit * 1000.0)
                    release = busy_until
                rules.counts["forwarded"] += 1
                order += 1
                heapq.heappush(queue, (release + delay, order, fb if fd == fa else fa, frame))
    c = rules.counts
    print(f"forwarded {c['forwarded']} dropped syn {c['syn']} synack {c['synack']} resp {c['resp']} queue {c['queue']}",
          flush=True)


if __name__ == "__main__":
    sys.exit(main())
