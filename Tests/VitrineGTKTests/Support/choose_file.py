"""Picks a file in the program's open dialog as a user would, through AT-SPI, for Vitrine's tests.

Usage: choose_file.py NAME. Looks (2 s at most) for a file chooser showing a file NAME in
any application on the accessibility bus, selects its row and presses the dialog's Open
button. Prints "CHOSE NAME", or the accessible tree
it searched and exits 1. (libatspi's view of the desktop is fixed at its first look, so
the caller runs this again until it succeeds.)
Needs Debian's python3-pyatspi (/usr/bin/python3) and the session bus of the program.
"""
import sys
import time

import pyatspi


def walk(node, depth=0):
    yield node, depth
    for index in range(node.childCount):
        child = node.getChildAtIndex(index)
        if child is not None:
            yield from walk(child, depth + 1)


def find_dialog_and_cell(name):
    desktop = pyatspi.Registry.getDesktop(0)
    for app in desktop:
        if app is None:
            continue
        for window in app:
            if window is None or window.getRoleName() not in ("dialog", "file chooser"):
                continue
            cell = next((node for node, _ in walk(window)
                         if node.getRoleName() == "table cell" and node.name == name), None)
            if cell is not None:
                return window, cell
    return None, None


def main():
    name = sys.argv[1]
    deadline = time.time() + 2
    while time.time() < deadline:
        window, cell = find_dialog_and_cell(name)
        if cell is not None:
            # Select the file's row in the list, then press the dialog's Open button.
            table = cell.parent
            while table is not None and table.getRoleName() not in ("table", "tree table"):
                table = table.parent
            if table is None:
                print("no file list around", name)
                return 1
            table.querySelection().selectChild(cell.getIndexInParent())
            time.sleep(0.3)  # GTK applies the selection on its own loop turn
            button = next((node for node, _ in walk(window)
                           if node.getRoleName() == "push button" and node.name.replace("_", "") == "Open"), None)
            if button is None:
                print("no Open button")
                return 1
            button.queryAction().doAction(0)
            print("CHOSE", name, flush=True)
            return 0
        time.sleep(0.2)
    for app in pyatspi.Registry.getDesktop(0):
        if app is None:
            continue
        for node, depth in walk(app):
            print("  " * depth + node.getRoleName() + " " + repr(node.name))
    return 1


if __name__ == "__main__":
    sys.exit(main())
