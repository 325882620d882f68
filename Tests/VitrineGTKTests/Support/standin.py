"""What the stand-in desktop services of Vitrine's tests share (fake_*.py beside this file).

serve() owns NAME on the session bus it is given (DBUS_SESSION_BUS_ADDRESS), serves the
interface INTERFACE (D-Bus XML) at PATH with on_call (and any further objects given), prints
"READY" once it owns the name, and runs until killed. Needs Debian's python3-gi.
"""
import sys

from gi.repository import Gio, GLib


def serve(name, path, interface, on_call, more=()):
    """more: further (path, interface, on_call) objects to serve, a test's control object."""
    def on_bus(connection, _name):
        for object_path, xml, handler in [(path, interface, on_call), *more]:
            info = Gio.DBusNodeInfo.new_for_xml(xml).interfaces[0]
            connection.register_object(object_path, info, handler, None, None)

    Gio.bus_own_name(Gio.BusType.SESSION, name, Gio.BusNameOwnerFlags.NONE,
                     on_bus, lambda *_: print("READY", flush=True), lambda *_: sys.exit("lost the name"))
    GLib.MainLoop().run()
