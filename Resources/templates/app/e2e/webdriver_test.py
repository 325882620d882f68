#!/usr/bin/env python3
"""__NAME__ end to end: WebKitWebDriver drives the built program as Selenium or WebdriverIO
would, with plain W3C WebDriver requests (Python's standard library only).

    python3 e2e/webdriver_test.py [PROGRAM]   (default: .build/debug/__NAME__; `make e2e`)

Needs a display (`make e2e` runs it under xvfb-run when there is none) and Debian's
webkit2gtk-driver. Exit status 0 when every check passes.
"""
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", ".build", "debug", "__NAME__"))
DEADLINE = 60  # seconds for each wait


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    """WebKitWebDriver on a loopback port, spoken to in W3C WebDriver's JSON."""

    def __init__(self):
        self.port = free_port()
        self.process = subprocess.Popen(["WebKitWebDriver", f"--port={self.port}", "--host=127.0.0.1"])
        self.wait_for(lambda: self.request("GET", "/status").get("ready"), "the driver to be ready")

    def request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=DEADLINE) as reply:
                return json.load(reply)["value"]
        except urllib.error.HTTPError as error:
            raise AssertionError(f"{method} {path}: {error.code} {error.read().decode()}") from None

    @staticmethod
    def wait_for(check, what):
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end:
            try:
                if check():
                    return
            except (OSError, AssertionError):
                pass
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what}")

    def close(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def main():
    if not os.access(PROGRAM, os.X_OK):
        sys.exit(f"{PROGRAM} is not built: run swift build first")
    driver = Driver()
    session = None
    try:
        # WebKitWebDriver starts the program with these arguments and no others:
        # `--automation` is the program's own flag (see Sources/__NAME__/main.swift).
        session = driver.request("POST", "/session", {"capabilities": {"alwaysMatch": {
            "webkitgtk:browserOptions": {"binary": PROGRAM, "args": ["--automation"]}}}})["sessionId"]
        base = f"/session/{session}"

        def answer():
            found = driver.request("POST", f"{base}/element", {"using": "css selector", "value": "#answer"})
            element = next(iter(found.values()))
            return driver.request("GET", f"{base}/element/{element}/text")

        # The page opened by itself, called Swift, and shows the answer.
        driver.wait_for(lambda: "from Swift" in answer(), "the page to show Swift's answer")
        print("ok    the page shows Swift's answer:", answer())

        # Type another name and submit: the strategy answers that one.
        field = next(iter(driver.request("POST", f"{base}/element", {"using": "css selector", "value": "#name"}).values()))
        driver.request("POST", f"{base}/element/{field}/clear", {})
        driver.request("POST", f"{base}/element/{field}/value", {"text": "WebDriver"})
        button = next(iter(driver.request("POST", f"{base}/element", {"using": "css selector", "value": "button"}).values()))
        driver.request("POST", f"{base}/element/{button}/click", {})
        driver.wait_for(lambda: "Hello, WebDriver" in answer(), "the answer for the typed name")
        print("ok    a typed name is answered:", answer())

        # The same call from a test script, and a refusal: an empty name is a Swift error.
        reply = driver.request("POST", f"{base}/execute/async", {"args": [], "script": """
            const done = arguments[arguments.length - 1];
            vitrine.invoke('greet', {name: ''}).then(r => done('answered ' + r.message), e => done('refused: ' + e.message));
        """})
        assert reply.startswith("refused: "), reply
        print("ok    an empty name is refused:", reply)
    finally:
        if session:
            driver.request("DELETE", f"/session/{session}")
        driver.close()
    print("e2e: all checks passed")


if __name__ == "__main__":
    main()
