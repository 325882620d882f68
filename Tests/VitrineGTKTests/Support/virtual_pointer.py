"""Gives a wlroots compositor's default seat a pointer (zwlr_virtual_pointer_v1), so that
`swaymsg seat seat0 cursor ...` reaches clients: a headless sway has no input devices, and a
seat without the pointer capability gives no client a wl_pointer.

Speaks the Wayland wire protocol directly (no client library in Python): binds the manager,
creates one virtual pointer, prints "READY" after a round trip, and holds the connection until
killed (the pointer goes with it). Needs WAYLAND_DISPLAY and XDG_RUNTIME_DIR.
"""
import os
import socket
import struct
import sys

MANAGER = b"zwlr_virtual_pointer_manager_v1"


def message(object_id, opcode, payload=b""):
    return struct.pack("<II", object_id, (8 + len(payload)) << 16 | opcode) + payload


def string(text):
    data = text + b"\0"
    return struct.pack("<I", len(data)) + data + b"\0" * (-len(data) % 4)


def events(connection):
    buffer = b""
    while True:
        while len(buffer) >= 8:
            object_id, word = struct.unpack("<II", buffer[:8])
            size = word >> 16
            if len(buffer) < size:
                break
            yield object_id, word & 0xFFFF, buffer[8:size]
            buffer = buffer[size:]
        chunk = connection.recv(65536)
        if not chunk:
            sys.exit("the compositor closed the connection")
        buffer += chunk


def round_trip(connection, stream, callback_id):
    connection.sendall(message(1, 0, struct.pack("<I", callback_id)))  # wl_display.sync
    for object_id, opcode, payload in stream:
        if object_id == 1 and opcode == 0:  # wl_display.error
            sys.exit("wayland error: %r" % payload)
        if object_id == callback_id:
            return
        yield object_id, opcode, payload


def main():
    path = os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ["WAYLAND_DISPLAY"])
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(path)
    stream = events(connection)
    connection.sendall(message(1, 1, struct.pack("<I", 2)))  # wl_display.get_registry -> 2
    manager = None
    for object_id, opcode, payload in round_trip(connection, stream, 3):
        if object_id == 2 and opcode == 0:  # wl_registry.global(name, interface, version)
            name, length = struct.unpack("<II", payload[:8])
            if payload[8:8 + length - 1] == MANAGER:
                manager = name
    if manager is None:
        sys.exit("the compositor offers no " + MANAGER.decode())
    # wl_registry.bind(name, interface, version 1, new id 4); then create_virtual_pointer(seat: null -> the default seat, 5).
    connection.sendall(message(2, 0, struct.pack("<I", manager) + string(MANAGER) + struct.pack("<II", 1, 4))
                       + message(4, 0, struct.pack("<II", 0, 5)))
    for _ in round_trip(connection, stream, 6):
        pass
    print("READY", flush=True)
    for _ in stream:  # the compositor's events: none expected; read so that the socket never fills
        pass


main()
