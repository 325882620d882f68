"""A bundle server for the playlist-bundle tests: serves the files of --directory over
HTTP on loopback (a path asked with ?truncate: its full Content-Length but half its bytes,
then the connection closed: an interrupted download) with a strong ETag (the content's hash), answers If-None-Match with 304,
and appends "PATH IF-NONE-MATCH STATUS" to --log for each request. The test changes a
file's content to publish a new version; it stops the server (and starts it again on the
same --port) to take the network away.

Also, as `bundle_server.py zip OUT NAME=TEXT... [--symlink NAME=TARGET]... [--zeros NAME=BYTES]...`:
writes a zip with those files (symlink entries, files of zeros), for the tests to serve."""
import argparse, hashlib, http.server, os, sys, zipfile


def make_zip(out, specs, symlinks, zeros):
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for spec in zeros:
            name, size = spec.split("=", 1)
            archive.writestr(name, bytes(int(size)))
        for spec in specs:
            name, text = spec.split("=", 1)
            archive.writestr(name, text)
        for spec in symlinks:
            name, target = spec.split("=", 1)
            info = zipfile.ZipInfo(name)
            info.create_system = 3
            info.external_attr = 0o120777 << 16
            archive.writestr(info, target)


def serve(directory, port, log):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            path = os.path.join(directory, self.path.split("?")[0].lstrip("/"))
            asked = self.headers.get("If-None-Match")
            try:
                with open(path, "rb") as file:
                    data = file.read()
            except OSError:
                self.answer(404, b"", None, asked)
                return
            if self.path.endswith("?truncate"):
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data[: len(data) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
            etag = '"%s"' % hashlib.sha256(data).hexdigest()[:16]
            self.answer(304 if asked == etag else 200, data, etag, asked)

        def answer(self, status, data, etag, asked):
            with open(log, "a") as file:
                file.write("%s %s %d\n" % (self.path, asked or "-", status))
            self.send_response(status)
            if etag:
                self.send_header("ETag", etag)
            if status == 200:
                self.send_header("Content-Type", "application/zip")
                self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if status == 200:
                self.wfile.write(data)

        def log_message(self, *args):
            pass

    http.server.ThreadingHTTPServer.allow_reuse_address = True
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    if sys.argv[1:2] == ["zip"]:
        parser = argparse.ArgumentParser()
        parser.add_argument("out")
        parser.add_argument("files", nargs="*")
        parser.add_argument("--symlink", action="append", default=[])
        parser.add_argument("--zeros", action="append", default=[])
        arguments = parser.parse_args(sys.argv[2:])
        make_zip(arguments.out, arguments.files, arguments.symlink, arguments.zeros)
    else:
        parser = argparse.ArgumentParser()
        parser.add_argument("--directory", required=True)
        parser.add_argument("--port", type=int, default=0)
        parser.add_argument("--log", required=True)
        arguments = parser.parse_args()
        serve(arguments.directory, arguments.port, arguments.log)
