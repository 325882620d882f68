"""A loopback HTTP(S) server for Vitrine's window tests.

Serves files from a folder, plus:
  /redirect?to=URL      302 to URL
  /slow?ms=N            answers after N milliseconds
  /auth                 401, asking for HTTP Basic credentials
  /maintenance/PATH     503 while the file MAINTENANCE is in the folder, else PATH
  /basic/PATH           with --basic USER:PASS: PATH for those HTTP Basic credentials, else 401
  /csp-sandbox/PATH     PATH with `Content-Security-Policy: sandbox allow-scripts` (an opaque origin)
  PUT /upload/NAME      stores the body as uploads/NAME in the folder (a support bundle's upload), 201
  POST /upload/NAME     appends the body and a newline to uploads/NAME (crash and error reports), 201
  POST /status/CODE/…   answers CODE (a failing server)
With --require-via, answers 403 to requests that did not come through a proxy (no Via header).
With --client-ca FILE (and --cert), TLS needs a client certificate that FILE's CA signed.
With --log FILE, appends each request's path to FILE (a line each) before answering.
Prints "PORT <n>" once listening. Binds 127.0.0.1 only; stops on SIGTERM.
"""
import argparse
import base64
import http.server
import os
import ssl
import sys
import time
import urllib.parse


class Handler(http.server.SimpleHTTPRequestHandler):
    log_file = None
    basic = None
    require_via = False

    def unauthorized(self):
        body = b"<!doctype html><title>unauthorized</title><p>401"
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="vitrine-test"')
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.log_file:
            with open(self.log_file, "a") as log:
                log.write(self.path + "\n")
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", query.get("to", ["/"])[0])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.require_via and "Via" not in self.headers:
            self.send_error(403, "Only through the proxy")
            return
        if url.path == "/auth":
            # Asks for HTTP Basic credentials, and never accepts any.
            self.unauthorized()
            return
        if url.path.startswith("/basic/"):
            expected = "Basic " + base64.b64encode((self.basic or "").encode()).decode()
            if not self.basic or self.headers.get("Authorization") != expected:
                self.unauthorized()
                return
            self.path = self.path[len("/basic"):]
        if url.path.startswith("/csp-sandbox/"):
            self.csp_sandbox = True
            self.path = self.path[len("/csp-sandbox"):]
        if url.path == "/slow":
            time.sleep(int(query.get("ms", ["1000"])[0]) / 1000)
        if url.path.startswith("/maintenance/"):
            if os.path.exists(os.path.join(self.directory, "MAINTENANCE")):
                self.send_error(503, "Service Unavailable")
                return
            self.path = self.path[len("/maintenance"):]
        super().do_GET()

    def do_PUT(self):
        if self.log_file:
            with open(self.log_file, "a") as log:
                log.write("PUT " + self.path + "\n")
        path = urllib.parse.urlsplit(self.path).path
        name = os.path.basename(path)
        if not path.startswith("/upload/") or not name or name.startswith("."):
            self.send_error(404, "Not Found")
            return
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        folder = os.path.join(self.directory, "uploads")
        os.makedirs(folder, exist_ok=True)
        # Written whole, then renamed: a test waiting for the file never reads half of it.
        with open(os.path.join(folder, "." + name), "wb") as part:
            part.write(body)
        os.rename(os.path.join(folder, "." + name), os.path.join(folder, name))
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        """A POST to /upload/NAME is appended to uploads/NAME (a line per body) and answered
        201; to /status/CODE/… it is answered CODE and kept nowhere. The log line comes
        after the body is stored: a test waiting for it finds the body."""
        path = urllib.parse.urlsplit(self.path).path
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        parts = path.split("/")
        status = 404
        if len(parts) > 2 and parts[1] == "status" and parts[2].isdigit():
            status = int(parts[2])
        elif path.startswith("/upload/") and parts[-1] and not parts[-1].startswith("."):
            folder = os.path.join(self.directory, "uploads")
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, parts[-1]), "ab") as upload:
                upload.write(body + b"\n")
            status = 201
        if self.log_file:
            with open(self.log_file, "a") as log:
                log.write("POST " + self.path + "\n")
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def end_headers(self):
        if getattr(self, "csp_sandbox", False):
            self.send_header("Content-Security-Policy", "sandbox allow-scripts")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args):
        pass


class TLSHandshakingServer(http.server.ThreadingHTTPServer):
    """Handshakes in each connection's own thread: a wrapped listening socket would
    handshake inside accept(), so one client that stalls or is refused holds up the next."""

    context = None

    def finish_request(self, request, client_address):
        if self.context is None:
            return super().finish_request(request, client_address)
        request.settimeout(10)
        try:
            secured = self.context.wrap_socket(request, server_side=True)
        except OSError:
            return  # the client refused the certificate or went away: its own business
        try:
            secured.settimeout(None)
            super().finish_request(secured, client_address)
        finally:
            secured.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--directory", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--log")
    parser.add_argument("--basic")
    parser.add_argument("--require-via", action="store_true")
    parser.add_argument("--client-ca")
    options = parser.parse_args()
    Handler.log_file = options.log
    Handler.basic = options.basic
    Handler.require_via = options.require_via

    def handler(*args, **kwargs):
        return Handler(*args, directory=options.directory, **kwargs)

    server = TLSHandshakingServer(("127.0.0.1", options.port), handler)
    if options.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(options.cert, options.key)
        if options.client_ca:
            context.verify_mode = ssl.CERT_REQUIRED
            context.load_verify_locations(options.client_ca)
        server.context = context
    print("PORT", server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
