"""A STAND-IN for the desktop portal's org.freedesktop.portal.GlobalShortcuts, for Vitrine's tests.

Debian 12 has no portal that implements GlobalShortcuts (xdg-desktop-portal 1.16, no
backend), so this script plays it on the session bus it is given
(DBUS_SESSION_BUS_ADDRESS): it owns org.freedesktop.portal.Desktop and serves, at
/org/freedesktop/portal/desktop, CreateSession and BindShortcuts with the Request/Response
protocol as the portal's documentation describes it (request and session handles built
from the caller's unique name and its tokens; a session binds once). It answers each
Request's Response BEFORE its method returns the handle: a client that subscribes only
after the call misses it, as it could with the real portal.

It is no desktop: it asks no user. What "the user" answers is set through a control object
(/org/vitrine/tests/PortalControl, interface org.vitrine.tests.PortalControl):
Answer(u) is the response code of the next binds (0 binds all, 1 cancelled, 2 ended),
Activate(s id) emits Activated for the bound session, ActivateIn(o session, s id) for any
session, Flood(s id, u count) emits that many at once; BoundSession() answers the session last bound.

With --without-global-shortcuts it offers another portal interface only (a portal without
GlobalShortcuts). Prints "READY" once it owns the name, then one line per call:
"CreateSession SESSION", "BindShortcuts SESSION id=trigger|description,...",
"Close SESSION". Runs until killed. Needs Debian's python3-gi.
"""
import sys

from gi.repository import Gio, GLib

PATH = "/org/freedesktop/portal/desktop"
INTERFACE = "org.freedesktop.portal.GlobalShortcuts"
PORTAL = f"""
<node>
  <interface name="{INTERFACE}">
    <method name="CreateSession">
      <arg type="a{{sv}}" name="options" direction="in"/><arg type="o" name="handle" direction="out"/>
    </method>
    <method name="BindShortcuts">
      <arg type="o" direction="in"/><arg type="a(sa{{sv}})" direction="in"/><arg type="s" direction="in"/>
      <arg type="a{{sv}}" direction="in"/><arg type="o" direction="out"/>
    </method>
    <signal name="Activated">
      <arg type="o"/><arg type="s"/><arg type="t"/><arg type="a{{sv}}"/>
    </signal>
    <property name="version" type="u" access="read"/>
  </interface>
</node>
"""
OTHER = """
<node>
  <interface name="org.freedesktop.portal.Settings">
    <method name="Read"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/></method>
    <property name="version" type="u" access="read"/>
  </interface>
</node>
"""
SESSION = """
<node><interface name="org.freedesktop.portal.Session"><method name="Close"/></interface></node>
"""
CONTROL = """
<node>
  <interface name="org.vitrine.tests.PortalControl">
    <method name="Answer"><arg type="u" direction="in"/></method>
    <method name="Activate"><arg type="s" direction="in"/></method>
    <method name="ActivateIn"><arg type="o" direction="in"/><arg type="s" direction="in"/></method>
    <method name="Flood"><arg type="s" direction="in"/><arg type="u" direction="in"/></method>
    <method name="BoundSession"><arg type="o" direction="out"/></method>
  </interface>
</node>
"""

state = {"answer": 0, "bound": None}
sessions = {}  # session handle → {"sender", "registration", "bound"}
clock = iter(range(1, 1 << 62))


def info(xml):
    return Gio.DBusNodeInfo.new_for_xml(xml).interfaces[0]


def handle(kind, sender, token):
    return f"{PATH}/{kind}/{sender[1:].replace('.', '_')}/{token}"


def respond(connection, sender, request, code, results):
    connection.emit_signal(sender, request, "org.freedesktop.portal.Request", "Response",
                           GLib.Variant("(ua{sv})", (code, results)))


def on_portal(connection, sender, path, interface, method, parameters, invocation):
    if method == "CreateSession":
        (options,) = parameters.unpack()
        request = handle("request", sender, options.get("handle_token", "t"))
        session = handle("session", sender, options.get("session_handle_token", "s"))
        registration = connection.register_object(session, info(SESSION), on_session, None, None)
        sessions[session] = {"sender": sender, "registration": registration, "bound": False}
        print("CreateSession", session, flush=True)
        respond(connection, sender, request, 0, {"session_handle": GLib.Variant("s", session)})
        invocation.return_value(GLib.Variant("(o)", (request,)))
    elif method == "BindShortcuts":
        session, shortcuts, _parent, options = parameters.unpack()
        known = sessions.get(session)
        if known is None or known["sender"] != sender or known["bound"]:
            invocation.return_dbus_error("org.freedesktop.portal.Error.InvalidArgument", "no such session, or bound already")
            return
        known["bound"] = True
        request = handle("request", sender, options.get("handle_token", "t"))
        print("BindShortcuts", session, ",".join(f"{i}={o.get('preferred_trigger', '')}|{o.get('description', '')}"
                                                 for i, o in shortcuts), flush=True)
        code = state["answer"]
        bound = [(i, {"description": GLib.Variant("s", o.get("description", "")),
                      "trigger_description": GLib.Variant("s", o.get("preferred_trigger", ""))}) for i, o in shortcuts]
        if code == 0:
            state["bound"] = session
        respond(connection, sender, request, code, {"shortcuts": GLib.Variant("a(sa{sv})", bound)} if code == 0 else {})
        invocation.return_value(GLib.Variant("(o)", (request,)))
    else:
        invocation.return_dbus_error("org.freedesktop.DBus.Error.UnknownMethod", method)


def on_session(connection, sender, path, interface, method, parameters, invocation):
    known = sessions.get(path)
    if known is not None and known["sender"] == sender:
        connection.unregister_object(known["registration"])
        del sessions[path]
        print("Close", path, flush=True)
    invocation.return_value(None)


def activate(connection, session, shortcut):
    connection.emit_signal(None, PATH, INTERFACE, "Activated", GLib.Variant("(osta{sv})", (session, shortcut, next(clock), {})))


def on_control(connection, sender, path, interface, method, parameters, invocation):
    arguments = parameters.unpack()
    if method == "Answer":
        state["answer"] = arguments[0]
    elif method == "Activate":
        activate(connection, state["bound"] or "/none", arguments[0])
    elif method == "ActivateIn":
        activate(connection, arguments[0], arguments[1])
    elif method == "Flood":
        for _ in range(arguments[1]):
            activate(connection, state["bound"] or "/none", arguments[0])
    elif method == "BoundSession":
        invocation.return_value(GLib.Variant("(o)", (state["bound"] or "/none",)))
        return
    invocation.return_value(None)


def on_bus(connection, _name):
    offered = OTHER if "--without-global-shortcuts" in sys.argv else PORTAL
    connection.register_object(PATH, info(offered), on_portal, lambda *_: GLib.Variant("u", 2), None)
    connection.register_object("/org/vitrine/tests/PortalControl", info(CONTROL), on_control, None, None)


if __name__ == "__main__":
    Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.portal.Desktop", Gio.BusNameOwnerFlags.NONE,
                     on_bus, lambda *_: print("READY", flush=True), lambda *_: sys.exit("lost the name"))
    GLib.MainLoop().run()
