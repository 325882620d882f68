"""A stand-in for the desktop's org.freedesktop.Notifications service, for Vitrine's tests.

Owns the name on the session bus it is given (DBUS_SESSION_BUS_ADDRESS), answers Notify
with a fresh id and prints each call as one line: "Notify <app> | <summary> | <body> |
<actions joined by ,>". Then, as a user would, "clicks" the notification: emits
ActionInvoked(id, "default") when the notification offers a default action. Prints
"READY" once it owns the name. Runs until killed. Needs Debian's python3-gi.
"""
import sys

from gi.repository import GLib

sys.dont_write_bytecode = True  # no __pycache__ in the test sources
from standin import serve  # noqa: E402

INTERFACE = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="Notify">
      <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
      <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
    </method>
    <method name="CloseNotification"><arg type="u" direction="in"/></method>
    <method name="GetCapabilities"><arg type="as" direction="out"/></method>
    <method name="GetServerInformation">
      <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
    </method>
    <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
    <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
  </interface>
</node>
"""

PATH = "/org/freedesktop/Notifications"
ids = iter(range(1, 1 << 31))


def on_call(connection, sender, path, interface, method, parameters, invocation):
    if method == "Notify":
        app, _replaces, _icon, summary, body, actions, _hints, _timeout = parameters.unpack()
        notification = next(ids)
        print("Notify", app, "|", summary, "|", body, "|", ",".join(actions), flush=True)
        invocation.return_value(GLib.Variant("(u)", (notification,)))
        if "default" in actions[::2]:
            GLib.timeout_add(50, click, connection, notification)
    elif method == "GetCapabilities":
        invocation.return_value(GLib.Variant("(as)", (["actions", "body"],)))
    elif method == "GetServerInformation":
        invocation.return_value(GLib.Variant("(ssss)", ("fake", "vitrine-tests", "1", "1.2")))
    else:
        invocation.return_value(None)


def click(connection, notification):
    connection.emit_signal(None, PATH, "org.freedesktop.Notifications", "ActionInvoked",
                           GLib.Variant("(us)", (notification, "default")))
    print("Clicked", notification, flush=True)
    return False


if __name__ == "__main__":
    serve("org.freedesktop.Notifications", PATH, INTERFACE, on_call)
