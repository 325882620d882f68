"""A stand-in for the desktop's org.kde.StatusNotifierWatcher (the tray's host side), for
Vitrine's tests.

Owns the name on the session bus it is given (DBUS_SESSION_BUS_ADDRESS), answers
RegisterStatusNotifierItem and prints each registration as one line: "REGISTERED <service>
<sender>". Prints "READY" once it owns the name. Runs until killed. Needs Debian's python3-gi.
"""
import sys

from gi.repository import GLib

sys.dont_write_bytecode = True  # no __pycache__ in the test sources
from standin import serve  # noqa: E402

INTERFACE = """
<node>
  <interface name="org.kde.StatusNotifierWatcher">
    <method name="RegisterStatusNotifierItem"><arg type="s" direction="in"/></method>
    <method name="RegisterStatusNotifierHost"><arg type="s" direction="in"/></method>
    <property name="RegisteredStatusNotifierItems" type="as" access="read"/>
    <property name="IsStatusNotifierHostRegistered" type="b" access="read"/>
    <property name="ProtocolVersion" type="i" access="read"/>
    <signal name="StatusNotifierItemRegistered"><arg type="s"/></signal>
  </interface>
</node>
"""


def on_call(connection, sender, path, interface, method, parameters, invocation):
    if method == "RegisterStatusNotifierItem":
        (service,) = parameters.unpack()
        print("REGISTERED", service, sender, flush=True)
        connection.emit_signal(None, path, interface, "StatusNotifierItemRegistered", GLib.Variant("(s)", (service,)))
    invocation.return_value(None)


serve("org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher", INTERFACE, on_call)
