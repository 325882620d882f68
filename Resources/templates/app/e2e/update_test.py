#!/usr/bin/env python3
"""__NAME__'s signed updates end to end: the relocatable tarball updates itself from 1.0.0 to
1.1.0, and a broken 1.2.0 rolls back to 1.1.0 by itself (README: "Signed updates").

    python3 e2e/update_test.py [--scratch-path DIR]   (`make e2e` runs it after webdriver_test.py)

`vitrine bundle` makes a throwaway key and the 1.0.0 packages (a release build, into a
temporary folder); 1.1.0 and 1.2.0 are that tarball with another `version` file (1.2.0's
program replaced by one that exits at once), each signed with `vitrine bundle --sign-only`
and served from a loopback HTTP server. The installed copy's vitrine.toml gets `[update]`
for that server and key, and its web folder a page that installs the first newer version
the feed offers and reports to the server. Needs a display (`make e2e` gives it Xvfb).
"""
import argparse
import glob
import http.server
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(HERE)
DEADLINE = 90  # seconds for each wait
MAINTAINER = "__NAME__ e2e <e2e@example.invalid>"

# The page each installed version shows (SERVER and VERSION filled in): it checks the feed
# every half second, installs the first newer version offered, and tells the server.
PAGE = """<!doctype html><title>update e2e</title><script>
const report = (what) => fetch(SERVER + 'report?' + what, {mode: 'no-cors'}).catch(() => {});
vitrine.update.on('rolled-back', ({reason}) => report('heard-rolled-back=' + encodeURIComponent(reason)));
async function loop() {
  try {
    const offer = await vitrine.update.check();
    if (offer) {
      report('installing=' + offer.version);
      await vitrine.update.install();
      return;
    }
  } catch (error) {
    report('failed=' + encodeURIComponent(error.message));
    return;
  }
  setTimeout(loop, 500);
}
report('loaded=' + VERSION);
loop();
</script>
"""


class Site:
    """dist/ over loopback HTTP (the feed, update.json, and the packages it names), and the
    page's reports, in order."""

    def __init__(self, folder):
        self.reports = []
        self.changed = threading.Condition()
        site = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=folder, **kwargs)

            def do_GET(self):
                if self.path.startswith("/report?"):
                    with site.changed:
                        site.reports.append(urllib.parse.unquote(self.path[len("/report?"):]))
                        site.changed.notify_all()
                    self.send_response(204)
                    self.end_headers()
                    return
                super().do_GET()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, prefix, what):
        end = time.monotonic() + DEADLINE
        with self.changed:
            while True:
                found = [r for r in self.reports if r.startswith(prefix)]
                if found:
                    return found[0][len(prefix):]
                if time.monotonic() > end:
                    raise AssertionError(f"timed out waiting for {what}; the page said {self.reports}")
                self.changed.wait(0.5)

    def close(self):
        self.server.shutdown()


def run(arguments, **kwargs):
    done = subprocess.run(arguments, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(arguments)}: {done.stdout}{done.stderr}")
    return done.stdout


def release(base, folder, dist, version, site, public_key, broken=False):
    """The 1.0.0 tarball as `version`: its folder renamed, its version file, [update] for the
    test's feed and key, the report page as its start page; `broken`: a program that exits."""
    stage = tempfile.mkdtemp(dir=os.path.dirname(dist))
    with tarfile.open(base) as tar:
        tar.extractall(stage)
    old = os.path.join(stage, folder + "-1.0.0")
    app = os.path.join(stage, f"{folder}-{version}")
    os.rename(old, app)
    with open(os.path.join(app, "version"), "w") as file:
        file.write(version + "\n")
    config = os.path.join(app, "vitrine.toml")
    with open(config) as file:
        text = file.read()
    # Top-level keys come before the file's tables; the template has no [capabilities] or [update].
    with open(config, "w") as file:
        file.write('start-url = "app://app/update-e2e.html"\ncapabilities."app://app" = ["update"]\n' + text
                   + f'\n[update]\nfeed = "{site.url}update.json"\npublic-key = "{public_key}"\ncheck-every = 0\n')
    with open(os.path.join(app, "web", "update-e2e.html"), "w") as file:
        file.write(PAGE.replace("SERVER", repr(site.url)).replace("VERSION", repr(version)))
    if broken:
        program = os.path.join(app, "__NAME__")
        os.remove(program)
        with open(program, "w") as file:
            file.write("#!/bin/sh\nexit 3\n")
        os.chmod(program, 0o755)
    machine = os.uname().machine
    with tarfile.open(os.path.join(dist, f"{folder}-{version}-{machine}.tar.gz"), "w:gz") as tar:
        tar.add(app, arcname=os.path.basename(app))
    shutil.rmtree(stage)


def sign(dist, version, key, site, scratch):
    """dist/update.json for `version`, signed; its .deb is 1.0.0's (only the tarball installs here)."""
    debs = glob.glob(os.path.join(dist, "*_1.0.0_*.deb"))
    target = debs[0].replace("_1.0.0_", f"_{version}_")
    if not os.path.exists(target):
        shutil.copyfile(debs[0], target)
    run(["vitrine", "bundle", "--scratch-path", scratch, "--output", dist, "--app-version", version,
         "--maintainer", MAINTAINER, "--sign-only", "--sign-key", key, "--update-url", site.url], cwd=PROJECT)


def programs_under(folder):
    """Processes whose program lies under `folder`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.readlink(f"/proc/{pid}/exe").startswith(folder):
                found.append(int(pid))
        except OSError:
            pass
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--scratch-path", default=os.path.join(PROJECT, ".build"))
    scratch = os.path.abspath(parser.parse_args().scratch_path)
    work = tempfile.mkdtemp(prefix="__PACKAGE__-update-e2e-")
    dist, apps = os.path.join(work, "dist"), os.path.join(work, "apps")
    os.makedirs(dist)
    os.makedirs(apps)
    site = Site(dist)
    app = None
    try:
        key = os.path.join(work, "update.key")
        run(["vitrine", "bundle", "--new-key", key])
        with open(key + ".pub") as file:  # a comment line, then the key
            public_key = file.read().split()[-1]
        run(["vitrine", "bundle", "--scratch-path", scratch, "--output", dist, "--app-version", "1.0.0",
             "--maintainer", MAINTAINER, "--no-lintian"], cwd=PROJECT)
        built = glob.glob(os.path.join(dist, "*-1.0.0-*.tar.gz"))[0]
        folder = os.path.basename(built).split("-1.0.0-")[0]
        base = os.path.join(work, "built.tar.gz")
        shutil.copyfile(built, base)

        # 1.0.0, installed as the docs say: unpacked, and run through the PACKAGE link.
        release(base, folder, dist, "1.0.0", site, public_key)
        with tarfile.open(os.path.join(dist, f"{folder}-1.0.0-{os.uname().machine}.tar.gz")) as tar:
            tar.extractall(apps)
        os.symlink(f"{folder}-1.0.0", os.path.join(apps, folder))
        release(base, folder, dist, "1.1.0", site, public_key)
        sign(dist, "1.1.0", key, site, scratch)

        app = subprocess.Popen([os.path.join(apps, folder, "__NAME__")], cwd=work)
        site.wait_for("loaded=1.0.0", "1.0.0's page")
        site.wait_for("installing=1.1.0", "1.0.0 to be offered 1.1.0")
        started = time.monotonic()
        site.wait_for("loaded=1.1.0", "1.1.0's page after the update")
        took = time.monotonic() - started
        assert app.wait(timeout=DEADLINE) == 0, "1.0.0 hands over and exits 0"
        assert os.readlink(os.path.join(apps, folder)) == f"{folder}-1.1.0", "the link names 1.1.0"
        print(f"ok    1.0.0 updated itself to 1.1.0 (install() to 1.1.0's page: {took:.1f} s)", flush=True)

        # A broken 1.2.0: the running 1.1.0 installs it, sees it exit, and comes back.
        release(base, folder, dist, "1.2.0", site, public_key, broken=True)
        sign(dist, "1.2.0", key, site, scratch)
        site.wait_for("installing=1.2.0", "1.1.0 to be offered 1.2.0")
        failed = site.wait_for("failed=", "the install of 1.2.0 to fail")
        assert failed.startswith("update: rolled-back: 1.2.0: "), failed
        heard = site.wait_for("heard-rolled-back=", "the page to hear the rollback")
        assert os.readlink(os.path.join(apps, folder)) == f"{folder}-1.1.0", "the link names 1.1.0 again"
        assert not os.path.exists(os.path.join(apps, f"{folder}-1.2.0")), "1.2.0's folder is removed"
        assert programs_under(os.path.join(apps, f"{folder}-1.1.0")), "1.1.0 still runs"
        print(f"ok    a broken 1.2.0 rolled back to 1.1.0 ({heard})", flush=True)
        print("update e2e: all checks passed", flush=True)
    finally:
        site.close()
        for pid in programs_under(work):
            os.kill(pid, signal.SIGTERM)
        end = time.monotonic() + 10
        while programs_under(work) and time.monotonic() < end:
            time.sleep(0.1)
        for pid in programs_under(work):
            os.kill(pid, signal.SIGKILL)
        if app and app.poll() is None:
            app.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    # Stopped (make's Ctrl-C, a CI timeout): the cleanup still ends the app and removes the folder.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("FAIL  stopped"))
    try:
        main()
    except AssertionError as error:
        sys.exit(f"FAIL  {error}")
