#!/usr/bin/python3
"""The web-kiosk-kwin check's loopback web server (standard library only).

    server.py ROOT PORT REPORT

Serves ROOT's files on 127.0.0.1:PORT (the page and clients/js), and appends what the page
reports (POST /report, a JSON list of objects) to REPORT, one JSON object a line, each stamped
with `up`, the guest's uptime in seconds when it arrived (the check's clock: /proc/uptime).
Prints "listening" once the socket is bound.
"""
import functools
import json
import sys
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer


def uptime():
    with open("/proc/uptime") as f:
        return float(f.read().split()[0])


class Handler(SimpleHTTPRequestHandler):
    report = None

    def do_POST(self):
        if self.path != "/report":
            self.send_error(404)
            return
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        up = uptime()
        try:
            items = json.loads(body)
            if not isinstance(items, list):
                items = [items]
        except ValueError:
            items = [{"type": "bad-report", "body": body.decode(errors="replace")[:200]}]
        with open(Handler.report, "a") as out:
            for item in items:
                if isinstance(item, dict):
                    item["up"] = up
                out.write(json.dumps(item) + "\n")
        self.send_response(204)
        self.end_headers()

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, fmt, *args):  # quiet: the report is the log
        pass


def main():
    root, port, Handler.report = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    server = ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=root))
    print("listening", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
