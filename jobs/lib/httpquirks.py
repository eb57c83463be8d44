#!/usr/bin/env python3
"""HTTP exchanges that exercise how tshark shows HTTP fields: for jobs/lab-http-fields.

  httpquirks.py serve PORT     an HTTP/1.1 server on 127.0.0.1:PORT (GET/HEAD of a few fixed bodies, POST answered
                               chunked, anything else 404); stops after 60 s at the latest
  httpquirks.py client PORT    the exchanges, in order, against 127.0.0.1:PORT

Only 127.0.0.1 is used; every socket has a timeout, so nothing waits for ever.
"""
import http.server
import socket
import socketserver
import sys
import threading
import time

BODIES = {'/index.html': b'hello\n', '/big.txt': b''.join(b'line %05d of a body in many segments\n' % i
                                                          for i in range(2000))}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def _send(self, head_only):
        body = BODIES.get(self.path)
        if body is None:
            body = b'not found\n'
            self.send_response(404)
        else:
            self.send_response(200)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        if not head_only:
            self.wfile.write(body)

    def do_GET(self):
        self._send(False)

    def do_HEAD(self):
        self._send(True)

    def do_POST(self):
        self.rfile.read(int(self.headers.get('Content-Length', 0)))
        self.send_response(200)
        self.send_header('Transfer-Encoding', 'chunked')
        self.end_headers()
        for part in (b'chunked', b'-reply\n'):
            self.wfile.write(b'%x\r\n%s\r\n' % (len(part), part))
        self.wfile.write(b'0\r\n\r\n')

    def log_message(self, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def serve(port):
    server = Server(('127.0.0.1', port), Handler)
    threading.Timer(60, server.shutdown).start()
    server.serve_forever()


def exchange(port, data, wait=0.2):
    """Sends data (bytes, or a list of bytes sent one by one) on a new connection; reads until the server is quiet."""
    s = socket.create_connection(('127.0.0.1', port), timeout=5)
    for part in (data if isinstance(data, list) else [data]):
        s.sendall(part)
        time.sleep(wait)
    s.settimeout(wait)
    try:
        while s.recv(65536):
            pass
    except socket.timeout:
        pass
    s.close()


def client(port):
    host = b'Host: 127.0.0.1:%d\r\n' % port
    exchange(port, b'GET /index.html HTTP/1.1\r\n' + host + b'\r\n')                       # head and body
    exchange(port, b'GET /big.txt HTTP/1.1\r\n' + host + b'\r\n')                          # body in many segments
    exchange(port, [b'GET /mis', b'sing HTTP/1.1\r\n' + host + b'\r\n'])                  # request line split: 404
    exchange(port, b'HEAD /big.txt HTTP/1.1\r\n' + host + b'\r\n')                         # length, no body
    body = b'x' * 3000
    exchange(port, [b'POST /up HTTP/1.1\r\n' + host + b'Expect: 100-continue\r\nContent-Length: 3000\r\n\r\n',
                    body])                                                                   # body after the head
    exchange(port, b'GET /index.html HTTP/1.1\r\n' + host + b'\r\nGET /big.txt HTTP/1.1\r\n' + host
             + b'\r\nHEAD /index.html HTTP/1.1\r\n' + host + b'\r\n')                      # pipelined, HEAD last
    exchange(port, b'GET /a%20b?q="x"&r=\xc3\xa9\tt HTTP/1.1\r\n' + host + b'\r\n')      # quote, UTF-8, tab
    exchange(port, b'GET /index.html HTTP/1.0\r\n\r\n')                                     # no Host, 1.0


if __name__ == '__main__':
    {'serve': serve, 'client': client}[sys.argv[1]](int(sys.argv[2]))
