"""A stand-in for the desktop's org.freedesktop.ScreenSaver service, for Vitrine's tests.

Owns the name on the session bus it is given (DBUS_SESSION_BUS_ADDRESS), answers Inhibit
with a fresh cookie and UnInhibit with nothing, and prints each call as a line:
"Inhibit <cookie> <application>" or "UnInhibit <cookie>". Prints "READY" once it owns
the name. Runs until killed. Needs Debian's python3-gi (/usr/bin/python3).
"""
import sys

from gi.repository import Gio, GLib

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
        print("Inhibit", cookie, parameters.unpack()[0], flush=True)
        invocation.return_value(GLib.Variant("(u)", (cookie,)))
    else:
        print("UnInhibit", parameters.unpack()[0], flush=True)
        invocation.return_value(None)


def on_bus(connection, name):
    info = Gio.DBusNodeInfo.new_for_xml(INTERFACE).interfaces[0]
    connection.register_object("/org/freedesktop/ScreenSaver", info, on_call, None, None)


def main():
    Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.ScreenSaver", Gio.BusNameOwnerFlags.NONE,
                     on_bus, lambda *_: print("READY", flush=True), lambda *_: sys.exit("lost the name"))
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
