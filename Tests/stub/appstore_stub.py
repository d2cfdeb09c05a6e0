#!/usr/bin/env python3
"""A stub of the App Store Server API for the tests and the bench, on 127.0.0.1 only.

It answers from a script and logs every request it gets, so a test can check what the tool
sent (method, path, headers, body) as Apple's own library tests do. It stops by itself after
--lifetime seconds, or when the test ends it.

Script (JSON): {"routes": [{"method": "PUT", "prefix": "/inApps/v2/transactions/consumption/",
"responses": [{"status": 202}, ...]}]}. Responses are used in order; the last one repeats.
A response may have "body" (a JSON value or a string), "headers", "delay" (seconds before
answering), "drop" (send the headers and half the body, then close the connection), and a
"Retry-After" header of "+MS", meaning MS milliseconds from now as Apple writes it (ms since 1970).
With --rate N, a request past N in the last second gets 429 and a Retry-After, as Apple's limit does.
"""
import argparse
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--lifetime", type=float, default=120)
    parser.add_argument("--rate", type=float, default=0, help="answer 429 past this many requests a second (0: no limit)")
    args = parser.parse_args()
    with open(args.script) as handle:
        routes = json.load(handle)["routes"]
    used = [0] * len(routes)
    lock = threading.Lock()
    recent = []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def answer(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            with lock:
                now = time.time()
                if args.rate:
                    # Apple's limit, enforced: past it, 429 and when to come back.
                    recent[:] = [t for t in recent if t > now - 1]
                    if len(recent) >= args.rate:
                        retry = int((recent[0] + 1) * 1000)
                        self.send_response(429)
                        self.send_header("Retry-After", str(retry))
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                    recent.append(now)
                with open(args.log, "a") as log:
                    log.write(json.dumps({
                        "method": self.command, "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": body.decode("utf-8", "replace"), "at": time.time(),
                    }) + "\n")
                index = next((i for i, r in enumerate(routes)
                              if r.get("method", self.command) == self.command and self.path.startswith(r["prefix"])), None)
                if index is None:
                    response = {"status": 404, "body": {"errorCode": 4040000, "errorMessage": "no such route in the stub"}}
                else:
                    responses = routes[index]["responses"]
                    response = responses[min(used[index], len(responses) - 1)]
                    used[index] += 1
            if response.get("delay"):
                time.sleep(response["delay"])
            content = response.get("body", "")
            data = (content if isinstance(content, str) else json.dumps(content)).encode()
            self.send_response(response.get("status", 200))
            for name, value in response.get("headers", {}).items():
                if name.lower() == "retry-after" and str(value).startswith("+"):
                    value = str(int(time.time() * 1000) + int(str(value)[1:]))
                self.send_header(name, value)
            if data:
                self.send_header("Content-Type", "application/json")
            if response.get("drop"):
                self.send_header("Content-Length", str(len(data) + 100))
                self.end_headers()
                self.wfile.write(data[: len(data) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_PUT = do_POST = answer

    class Server(HTTPServer):
        def handle_error(self, request, client_address):
            # A client that gave up (a timeout under test) is expected, not an error.
            if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
                super().handle_error(request, client_address)

    server = Server(("127.0.0.1", 0), Handler)
    print("PORT %d" % server.server_address[1], flush=True)
    threading.Timer(args.lifetime, server.shutdown).start()
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
