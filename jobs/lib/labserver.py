#!/usr/bin/env python3
"""An HTTP/1.1 server that is slow to write, for the cause labs (jobs/lab-causes): ackscope serve writes each
response at once, this one in pieces.

  labserver.py --bind ADDR --port P --body-size N --chunk-bytes C --every-ms T [--duration S]
      keep-alive connections, one at a time; each GET is answered with an N-byte body written C bytes per send(),
      T ms apart (the headers with the first piece): an application that produces its response slowly, whose
      pauses are not tied to the ACKs. TCP_NODELAY is on, so each piece leaves when it is written.
  labserver.py ... --split-at H
      the same, but each piece is written in two send() calls, its first H bytes and then the rest, with Nagle on
      (no TCP_NODELAY): a server pushing messages whose frame header and payload are separate writes. The kernel
      holds the payload (smaller than a segment) until the client acknowledges the header, so every message waits
      for the client's delayed ACK.

Prints "listening" once bound and one summary line at the end; stops after --duration seconds (at most 60).
"""
import argparse
import socket
import sys
import time


def serve_connection(conn, args, deadline):
    data = b""
    served = 0
    while time.monotonic() < deadline:
        while b"\r\n\r\n" not in data:
            more = conn.recv(4096)
            if not more:
                return served
            data += more
        _, _, data = data.partition(b"\r\n\r\n")
        head = f"HTTP/1.1 200 OK\r\nContent-Length: {args.body_size}\r\nContent-Type: text/plain\r\n\r\n".encode()
        left = args.body_size
        piece = head
        while left > 0:
            n = min(args.chunk_bytes, left)
            if args.split_at and n > args.split_at:
                conn.sendall(piece + b"x" * args.split_at)  # the header of the first piece goes with its first write
                piece, n = b"", n - args.split_at
                left -= args.split_at
            conn.sendall(piece + b"x" * n)
            left -= n
            piece = b""
            if left > 0:
                time.sleep(args.every_ms / 1000.0)
        served += 1
    return served


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bind", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8080)
    p.add_argument("--body-size", type=int, default=200000)
    p.add_argument("--chunk-bytes", type=int, default=14480)
    p.add_argument("--every-ms", type=float, default=50.0)
    p.add_argument("--duration", type=float, default=55.0)
    p.add_argument("--split-at", type=int, default=0)
    args = p.parse_args()
    if not 0 < args.duration <= 60 or not 1 <= args.chunk_bytes <= args.body_size <= 100_000_000:
        p.error("--duration 0-60 s; 1 <= --chunk-bytes <= --body-size <= 100,000,000")
    if not 0 <= args.split_at < args.chunk_bytes:
        p.error("--split-at must be 0 (one write per piece) or less than --chunk-bytes")
    deadline = time.monotonic() + args.duration
    served = 0
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as lsock:
        lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        lsock.bind((args.bind, args.port))
        lsock.listen(8)
        lsock.settimeout(1.0)
        print("listening", flush=True)
        while time.monotonic() < deadline:
            try:
                conn, _ = lsock.accept()
            except socket.timeout:
                continue
            with conn:
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 0 if args.split_at else 1)
                conn.settimeout(max(0.1, deadline - time.monotonic()))
                try:
                    served += serve_connection(conn, args, deadline)
                except OSError:
                    pass
    print(f"labserver: {served} responses", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
