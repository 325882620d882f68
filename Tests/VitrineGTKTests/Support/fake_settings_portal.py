"""A STAND-IN for the desktop portal's org.freedesktop.portal.Settings, for Vitrine's tests.

Debian 12's xdg-desktop-portal serves Settings only through a desktop's backend (GNOME's,
KDE's…), none of which runs in a bare test session; this script plays the portal on the
session bus it is given (DBUS_SESSION_BUS_ADDRESS): it owns org.freedesktop.portal.Desktop
and serves, at /org/freedesktop/portal/desktop, the interface's calls: ReadOne,
Read (the older call: its value wrapped once more), ReadAll, and the SettingChanged signal.
It knows one setting, org.freedesktop.appearance color-scheme, a uint32 given as the first
argument (default 0).

The test changes it through a control object (/org/vitrine/tests/SettingsControl,
interface org.vitrine.tests.SettingsControl): Set(v value) stores any value, garbage
included, and emits SettingChanged with it, as a portal does when the user switches.
Prints "READY" once it owns the name, then one line per call: "ReadOne NAMESPACE KEY",
"Read NAMESPACE KEY", "ReadAll", "Set VALUE". Runs until killed. Needs Debian's python3-gi.
"""
import sys

from gi.repository import GLib

sys.dont_write_bytecode = True  # no __pycache__ in the test sources
from standin import serve  # noqa: E402

PATH = "/org/freedesktop/portal/desktop"
INTERFACE = "org.freedesktop.portal.Settings"
PORTAL = f"""
<node>
  <interface name="{INTERFACE}">
    <method name="ReadOne">
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/>
    </method>
    <method name="Read">
      <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/>
    </method>
    <method name="ReadAll">
      <arg type="as" direction="in"/><arg type="a{{sa{{sv}}}}" direction="out"/>
    </method>
    <signal name="SettingChanged"><arg type="s"/><arg type="s"/><arg type="v"/></signal>
  </interface>
</node>
"""
CONTROL = """
<node>
  <interface name="org.vitrine.tests.SettingsControl">
    <method name="Set"><arg type="v" direction="in"/></method>
  </interface>
</node>
"""
NAMESPACE, KEY = "org.freedesktop.appearance", "color-scheme"
setting = {"value": GLib.Variant("u", int(sys.argv[1]) if len(sys.argv) > 1 else 0)}


def on_call(connection, sender, path, interface, method, parameters, invocation):
    if method in ("ReadOne", "Read"):
        namespace, key = parameters.unpack()
        print(method, namespace, key, flush=True)
        if (namespace, key) != (NAMESPACE, KEY):
            invocation.return_dbus_error("org.freedesktop.portal.Error.NotFound", "Requested setting not found")
            return
        value = setting["value"] if method == "ReadOne" else GLib.Variant("v", setting["value"])
        invocation.return_value(GLib.Variant("(v)", (value,)))
    elif method == "ReadAll":
        print("ReadAll", flush=True)
        invocation.return_value(GLib.Variant("(a{sa{sv}})", ({NAMESPACE: {KEY: setting["value"]}},)))


def on_control(connection, sender, path, interface, method, parameters, invocation):
    value = parameters.get_child_value(0).get_variant()
    setting["value"] = value
    print("Set", value.print_(True), flush=True)
    connection.emit_signal(None, PATH, INTERFACE, "SettingChanged", GLib.Variant("(ssv)", (NAMESPACE, KEY, value)))
    invocation.return_value(None)


if __name__ == "__main__":
    serve("org.freedesktop.portal.Desktop", PATH, PORTAL, on_call,
          more=[("/org/vitrine/tests/SettingsControl", CONTROL, on_control)])
