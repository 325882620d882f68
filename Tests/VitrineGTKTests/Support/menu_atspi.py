"""Finds and chooses menu items as a user would, through AT-SPI, for Vitrine's tests.

Usage: menu_atspi.py APP choose PATH  — activates the item PATH ("File/Open") of APP's menus;
       menu_atspi.py APP list         — prints every menu and menu item APP shows, one a line.
APP is the application's accessible name (the program's name). Prints "CHOSE PATH", or the
items it found and exits 1. (libatspi's view is fixed at its first look: the caller runs
this again until it succeeds.) Needs Debian's python3-pyatspi (/usr/bin/python3).
"""
import sys

import pyatspi

MENU_ROLES = ("menu", "menu item", "check menu item", "radio menu item")


def walk(node, path=()):
    for index in range(node.childCount):
        child = node.getChildAtIndex(index)
        if child is None:
            continue
        role = child.getRoleName()
        here = path + (child.name,) if role in MENU_ROLES and child.name else path
        if role in MENU_ROLES and child.name:
            yield "/".join(here), child
        yield from walk(child, here)


def items(app_name):
    desktop = pyatspi.Registry.getDesktop(0)
    for app in desktop:
        if app is not None and app.name == app_name:
            yield from walk(app)


def main():
    app_name, command = sys.argv[1], sys.argv[2]
    found = list(items(app_name))
    if command == "list":
        for path, node in found:
            states = node.getState()
            print(path, "enabled" if states.contains(pyatspi.STATE_ENABLED) else "disabled")
        return 0
    wanted = sys.argv[3]
    for path, node in found:
        if path == wanted:
            node.queryAction().doAction(0)
            print("CHOSE", path, flush=True)
            return 0
    print("no item", wanted, "among:", [path for path, _ in found])
    return 1


if __name__ == "__main__":
    sys.exit(main())
