#!/usr/bin/python3
"""Types into the demo form (Resources/demo/form.html) through Vitrine's on-screen keyboard,
as a user of assistive technology would: every key is found by its accessible name and
role on the accessibility bus and clicked with its AT-SPI action. Run under
`dbus-run-session` (so the accessibility bus exists) with a display.

    keyboard_atspi.py VITRINE CONFIG EVENTS

Starts VITRINE --config CONFIG --events EVENTS (with the accessibility bridge on), drives
the keyboard, and prints one JSON object: what the page reported (its title is the form's
state as JSON), what was showing at each step, and the show latency (a focus moved by the
Tab key on the keyboard, and by the page after a submit, to the keys being showing).
"""
import json
import os
import subprocess
import sys
import time

import pyatspi

VITRINE, CONFIG, EVENTS = sys.argv[1:4]
TIMEOUT = 30.0


def wait_for(what, predicate, timeout=TIMEOUT, interval=0.005):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise SystemExit(json.dumps({"error": "timed out waiting for " + what}))


def application(pid):
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        app = desktop.getChildAtIndex(index)
        try:
            if app is not None and app.get_process_id() == pid:
                return app
        except Exception:
            continue
    return None


def buttons(app):
    found = {}

    def walk(node, depth):
        if node is None or depth > 40:
            return
        try:
            role, name, count = node.getRole(), node.name, node.childCount
        except Exception:
            return
        if role == pyatspi.ROLE_PUSH_BUTTON and name and name not in found:
            found[name] = node
        if role == pyatspi.ROLE_DOCUMENT_WEB:
            return  # the page's own tree lives in the web process
        for index in range(count):
            walk(node.getChildAtIndex(index), depth + 1)

    walk(app, 0)
    return found


def showing(node):
    return node.getState().contains(pyatspi.STATE_SHOWING)


def page_state(app):
    frame = app.getChildAtIndex(0)
    try:
        return json.loads(frame.name)
    except Exception:
        return None


def main():
    environment = dict(os.environ)
    environment.pop("NO_AT_BRIDGE", None)
    environment["GTK_A11Y"] = "atk"
    process = subprocess.Popen([VITRINE, "--config", CONFIG, "--events", EVENTS],
                               env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    result = {}
    try:
        app = wait_for("the application on the accessibility bus", lambda: application(process.pid))
        keys = wait_for("the keyboard's keys", lambda: (lambda found: found if "Hide keyboard" in found else None)(buttons(app)))
        result["keys"] = sorted(keys)
        # The name field has autofocus: the text keys slide up.
        wait_for("the text keys showing", lambda: showing(keys["q"]) and showing(keys["Hide keyboard"]))
        def press(name):
            # Found afresh: shift renames the character keys.
            key = wait_for("the key " + name, lambda: buttons(app).get(name))
            key.queryAction().doAction(0)

        press("Shift")
        result["shifted names"] = wait_for("shifted names", lambda: "H" in buttons(app) and "h" not in buttons(app))
        press("H")
        press("i")
        keys = buttons(app)
        result["unshifted after a letter"] = "h" in keys and "H" not in keys
        wait_for("Hi in the name field", lambda: (page_state(app) or {}).get("name") == "Hi")

        press("Tab")
        wait_for("the controlled field focused", lambda: True)
        for name in ["o", "k"]:
            press(name)
        wait_for("ok in the controlled field", lambda: (page_state(app) or {}).get("state") == "ok")

        start = time.monotonic()
        press("Tab")
        # The stack shows one key set: the letters leave the accessible tree.
        def numeric_pad():
            keys = buttons(app)
            return "5" in keys and showing(keys["5"]) and "q" not in keys and "+" in keys
        wait_for("the numeric pad", numeric_pad)
        result["numeric pad latency ms"] = round((time.monotonic() - start) * 1000, 1)
        result["numeric pad"] = sorted(buttons(app))
        for name in ["4", "2", "Backspace", "7"]:
            press(name)
        wait_for("47 in the quantity", lambda: (page_state(app) or {}).get("quantity") == "47")

        press("Enter")  # submits; the page blurs the field
        wait_for("the submit", lambda: (page_state(app) or {}).get("submitted") == 1)
        wait_for("the keyboard hidden on blur", lambda: not showing(buttons(app)["Hide keyboard"]))
        result["hidden on blur"] = True
        result["state"] = page_state(app)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
    print(json.dumps(result))


main()
