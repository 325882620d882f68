"""A stand-in for the desktop's org.freedesktop.ScreenSaver service, for Vitrine's tests.

Owns the name on the session bus it is given (DBUS_SESSION_BUS_ADDRESS), answers Inhibit
with a fresh cookie and UnInhibit with nothing, and prints each call as a line:
"Inhibit <cookie> <application> <reason>" or "UnInhibit <cookie>". Prints "READY" once it owns
the name. Runs until killed. Needs Debian's python3-gi (/usr/bin/python3).
"""
import sys

from gi.repository import GLib

sys.dont_write_bytecode = True  # no __pycache__ in the test sources
from standin import serve  # noqa: E402

INTERFACE = """
<node>
  <interface name="org.freedesktop.ScreenSaver">
    <method name="Inhibit">
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="u" direction="out"/>
    </method>
    <method name="UnInhibit"><arg type="u" direction="in"/></method>
  </interface>
</node>
"""

cookies = iter(range(4242, 1 << 31))


def on_call(connection, sender, path, interface, method, parameters, invocation):
    if method == "Inhibit":
        cookie = next(cookies)
        print("Inhibit", cookie, *parameters.unpack(), flush=True)
        invocation.return_value(GLib.Variant("(u)", (cookie,)))
    else:
        print("UnInhibit", parameters.unpack()[0], flush=True)
        invocation.return_value(None)


if __name__ == "__main__":
    serve("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver", INTERFACE, on_call)
