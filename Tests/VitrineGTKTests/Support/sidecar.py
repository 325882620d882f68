#!/usr/bin/env python3
"""A sidecar for the sidecar program tests: a small HTTP server on $VITRINE_SIDECAR_PORT.

sidecar.py serve MARKER    first start (MARKER missing): writes MARKER and exits 3 (a crash);
                           later starts: prints its environment's LOG_LEVEL, floods standard
                           output with 5000 lines, starts a child in its process group
                           (`sleep`), then serves GET /health (200) and logs every request
                           line on standard error and into MARKER.requests.
sidecar.py hang            never listens: a sidecar that is never ready.
"""
import http.server
import os
import signal
import subprocess
import sys


# A frame of another origin than the app's that tries the sidecars capability, then tells
# this server what it got.
FRAME = b"""<!doctype html><script>
const answer = window.vitrine ? vitrine.sidecars.get('api')
  : new Promise((resolve) => resolve('no sdk in this frame'));
answer.then((got) => 'granted ' + JSON.stringify(got), (error) => 'refused ' + error.message)
  .then((text) => fetch('/report-frame?' + encodeURIComponent(text)));
</script>"""


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = FRAME if self.path == "/frame.html" else b""
        found = body or self.path == "/health" or self.path.startswith("/report")
        self.send_response(200 if found else 404)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        sys.stderr.write("request %s\n" % self.requestline)
        sys.stderr.flush()
        with open(sys.argv[2] + ".requests", "a") as log:
            log.write(self.requestline + "\n")


def main():
    mode = sys.argv[1]
    if mode == "hang":
        print("hanging, never listening", flush=True)
        while True:
            signal.pause()
    marker = sys.argv[2]
    if not os.path.exists(marker):
        open(marker, "w").close()
        print("first start: crashing", flush=True)
        sys.exit(3)
    print("LOG_LEVEL=%s" % os.environ.get("LOG_LEVEL"), flush=True)
    for index in range(5000):
        sys.stdout.write("flood line %d\n" % index)
    sys.stdout.flush()
    child = subprocess.Popen(["sleep", "1000"])
    print("child %d" % child.pid, flush=True)
    server = http.server.HTTPServer(("127.0.0.1", int(os.environ["VITRINE_SIDECAR_PORT"])), Handler)
    server.serve_forever()


main()
