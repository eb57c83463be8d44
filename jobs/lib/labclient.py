#!/usr/bin/env python3
"""HTTP/1.1 clients with the behaviours ackscope load does not have, for the cause labs (jobs/lab-causes).

  slow-read URL --rcvbuf B --read-bytes N --every-ms T --requests R [--gap-ms G]
      one keep-alive connection whose socket has SO_RCVBUF = B (set before connect, so the window scale is small
      too; 0 leaves the kernel's autotuning); it sends R requests one after another, G ms after the previous
      response (0: at once), and reads each response N bytes at a time, T ms apart: a reader slower than the path,
      which fills its receive buffer and advertises a zero window; or, with T = 0 and G above the sender's RTO, a
      connection idle between requests (the sender's congestion window restarts, RFC 5681 section 4.1).
      With --lowat L the body is a sequence of L-byte messages and the client waits in select() with SO_RCVLOWAT
      until the rest of the current message is queued before each read: an event loop reading whole messages,
      which leaves a message's first segment unread (Linux then does not acknowledge it on the read,
      tcp_cleanup_rbuf), so only the receiver's delayed-ACK timer acknowledges it.
  churn URL --requests R [--gap-ms G]
      R requests, each on a new connection with "Connection: close" that the client closes once it has read the
      response, G ms apart: connection churn. With --reset-every N every Nth connection is closed with SO_LINGER
      {on, 0 s}, so the client's close sends a RST instead of a FIN (a client that aborts its connections, as some
      load generators and pools do to keep no TIME_WAIT sockets).
  two-write URL --requests R --body-bytes N
      one keep-alive connection with Nagle on (no TCP_NODELAY) sending R POST requests one after another, each in
      two send() calls: the header section, then its N-byte body; the kernel holds the body (smaller than a
      segment) until the server acknowledges the headers, which a server with nothing to answer yet delays.

All are bounded by --timeout per socket operation and print one summary line (requests, errors, seconds).
"""
import argparse
import select
import socket
import struct
import sys
import time
from urllib.parse import urlsplit


def request(host, path, close, method="GET", body_bytes=0):
    extra = "Connection: close\r\n" if close else ""
    if body_bytes:
        extra += f"Content-Length: {body_bytes}\r\n"
    return f"{method} {path} HTTP/1.1\r\nHost: {host}\r\n{extra}\r\n".encode()


def read_response(sock, chunk, pause, lowat=0):
    """Reads one response (Content-Length framed) chunk bytes at a time, pause seconds apart; returns its size."""
    data = b""
    while b"\r\n\r\n" not in data:
        more = sock.recv(4096)
        if not more:
            raise ConnectionError("closed before the response header")
        data += more
    head, _, body = data.partition(b"\r\n\r\n")
    size = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            size = int(value.strip())
    got = len(body)
    while got < size:
        if pause:
            time.sleep(pause)
        if lowat:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT, min(lowat - got % lowat, size - got))
            select.select([sock], [], [], sock.gettimeout())
        more = sock.recv(min(chunk - got % chunk if lowat else chunk, size - got))
        if not more:
            raise ConnectionError("closed in the body")
        got += len(more)
    return size


def slow_read(args, host, port, path):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if args.rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, args.rcvbuf)
    if args.lowat:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT, args.lowat)
    sock.settimeout(args.timeout)
    sock.connect((host, port))
    done = 0
    for i in range(args.requests):
        if i and args.gap_ms:
            time.sleep(args.gap_ms / 1000.0)
        sock.sendall(request(host, path, False))
        read_response(sock, args.read_bytes, args.every_ms / 1000.0, args.lowat)
        done += 1
    sock.close()
    return done, 0


def churn(args, host, port, path):
    done = errors = 0
    for i in range(args.requests):
        try:
            with socket.create_connection((host, port), timeout=args.timeout) as sock:
                sock.sendall(request(host, path, True))
                read_response(sock, 65536, 0)
                if args.reset_every and (i + 1) % args.reset_every == 0:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            done += 1
        except OSError:
            errors += 1
        time.sleep(args.gap_ms / 1000.0)
    return done, errors


def two_write(args, host, port, path):
    sock = socket.create_connection((host, port), timeout=args.timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 0)
    body = b"x" * args.body_bytes
    done = 0
    for _ in range(args.requests):
        sock.sendall(request(host, path, False, "POST", len(body)))
        sock.sendall(body)
        read_response(sock, 65536, 0)
        done += 1
    sock.close()
    return done, 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["slow-read", "churn", "two-write"])
    p.add_argument("url")
    p.add_argument("--requests", type=int, default=1)
    p.add_argument("--rcvbuf", type=int, default=4096)
    p.add_argument("--read-bytes", type=int, default=1024)
    p.add_argument("--every-ms", type=float, default=10.0)
    p.add_argument("--body-bytes", type=int, default=100)
    p.add_argument("--gap-ms", type=float, default=0.0)
    p.add_argument("--lowat", type=int, default=0)
    p.add_argument("--reset-every", type=int, default=0)
    p.add_argument("--timeout", type=float, default=10.0)
    args = p.parse_args()
    if not 1 <= args.requests <= 100000:
        p.error("--requests must be 1 to 100000")
    url = urlsplit(args.url)
    start = time.monotonic()
    if not 1 <= args.body_bytes <= 1000:
        p.error("--body-bytes must be 1 to 1000 (less than a segment, so Nagle holds it)")
    mode = {"slow-read": slow_read, "churn": churn, "two-write": two_write}[args.mode]
    done, errors = mode(args, url.hostname, url.port or 80, url.path or "/")
    print(f"{args.mode}: {done} requests, {errors} errors, {time.monotonic() - start:.3f} s", flush=True)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
