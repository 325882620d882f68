"""A stand-in for the desktop's org.freedesktop.Notifications service, for Vitrine's tests.

Owns the name on the session bus it is given (DBUS_SESSION_BUS_ADDRESS), answers Notify
with a fresh id and prints each call as one line: "Notify <app> | <summary> | <body> |
<actions joined by ,>" (the actions as the protocol lists them: key, label, key, label…).
Then, as a user would, "clicks" a notification that offers a default action and no
buttons: emits ActionInvoked(id, "default"). A notification with buttons waits for the
test to press one, as a user would, through a control object
(/org/vitrine/tests/NotificationsControl, interface org.vitrine.tests.NotificationsControl):
Press(s label) emits ActionInvoked(id, key) for the newest notification with a button of
that label, as a real server does, and answers the key ("" when there is no such button).
Prints "Clicked ID" and "Pressed ID KEY". Prints "READY" once it owns the name. Runs
until killed. Needs Debian's python3-gi.
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

CONTROL = """
<node>
  <interface name="org.vitrine.tests.NotificationsControl">
    <method name="Press"><arg type="s" direction="in"/><arg type="s" direction="out"/></method>
  </interface>
</node>
"""

PATH = "/org/freedesktop/Notifications"
ids = iter(range(1, 1 << 31))
# Each notification shown: its id and its buttons (key, label), newest last.
shown = []


def on_call(connection, sender, path, interface, method, parameters, invocation):
    if method == "Notify":
        app, _replaces, _icon, summary, body, actions, _hints, _timeout = parameters.unpack()
        notification = next(ids)
        print("Notify", app, "|", summary, "|", body, "|", ",".join(actions), flush=True)
        invocation.return_value(GLib.Variant("(u)", (notification,)))
        buttons = [(key, label) for key, label in zip(actions[::2], actions[1::2]) if key != "default"]
        shown.append((notification, buttons))
        if "default" in actions[::2] and not buttons:
            GLib.timeout_add(50, click, connection, notification)
    elif method == "CloseNotification":
        print("Close", parameters.unpack()[0], flush=True)
        invocation.return_value(None)
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


def on_control(connection, sender, path, interface, method, parameters, invocation):
    (label,) = parameters.unpack()
    for notification, buttons in reversed(shown):
        for key, button in buttons:
            if button == label:
                connection.emit_signal(None, PATH, "org.freedesktop.Notifications", "ActionInvoked",
                                       GLib.Variant("(us)", (notification, key)))
                print("Pressed", notification, key, flush=True)
                invocation.return_value(GLib.Variant("(s)", (key,)))
                return
    invocation.return_value(GLib.Variant("(s)", ("",)))


if __name__ == "__main__":
    serve("org.freedesktop.Notifications", PATH, INTERFACE, on_call,
          more=[("/org/vitrine/tests/NotificationsControl", CONTROL, on_control)])
