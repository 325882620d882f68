#!/usr/bin/env python3
"""A minimal RFB (VNC) 3.8 viewer for tests: connects to HOST PORT, and prints the colour
of the pixel at X Y as #rrggbb (security type None), or `auth TYPES` and exits 3 when the
server offers no unauthenticated access. Raw encoding, 32-bit true colour; nothing else."""
import socket
import struct
import sys


def read(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise EOFError("the server closed the connection")
        data += chunk
    return data


def main():
    host, port, x, y = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    sock = socket.create_connection((host, port), timeout=10)
    version = read(sock, 12)
    if not version.startswith(b"RFB 003."):
        raise SystemExit(f"not an RFB server: {version!r}")
    sock.sendall(b"RFB 003.008\n")
    count = read(sock, 1)[0]
    if count == 0:
        length = struct.unpack(">I", read(sock, 4))[0]
        raise SystemExit("refused: " + read(sock, length).decode(errors="replace"))
    types = list(read(sock, count))
    if 1 not in types:
        print("auth " + " ".join(map(str, types)))
        sys.exit(3)
    sock.sendall(bytes([1]))
    if struct.unpack(">I", read(sock, 4))[0] != 0:
        raise SystemExit("security handshake failed")
    sock.sendall(bytes([1]))  # ClientInit: shared
    width, height = struct.unpack(">HH", read(sock, 4))
    read(sock, 16)  # the server's pixel format
    read(sock, struct.unpack(">I", read(sock, 4))[0])  # the desktop's name
    # SetPixelFormat: 32 bpp, depth 24, little-endian, true colour, red<<16 green<<8 blue.
    sock.sendall(struct.pack(">B3xBBBBHHHBBB3x", 0, 32, 24, 0, 1, 255, 255, 255, 16, 8, 0))
    sock.sendall(struct.pack(">BxHi", 2, 1, 0))  # SetEncodings: raw only
    if not (0 <= x < width and 0 <= y < height):
        raise SystemExit(f"({x}, {y}) is outside the {width}x{height} screen")
    sock.sendall(struct.pack(">BBHHHH", 3, 0, x, y, 1, 1))  # FramebufferUpdateRequest
    while True:
        kind = read(sock, 1)[0]
        if kind == 0:  # FramebufferUpdate
            read(sock, 1)
            for _ in range(struct.unpack(">H", read(sock, 2))[0]):
                rx, ry, rw, rh, encoding = struct.unpack(">HHHHi", read(sock, 12))
                if encoding != 0:
                    raise SystemExit(f"unexpected encoding {encoding}")
                pixels = read(sock, rw * rh * 4)
                if rx <= x < rx + rw and ry <= y < ry + rh:
                    offset = ((y - ry) * rw + (x - rx)) * 4
                    blue, green, red = pixels[offset], pixels[offset + 1], pixels[offset + 2]
                    print(f"#{red:02x}{green:02x}{blue:02x}")
                    return
        elif kind == 1:  # SetColourMapEntries
            read(sock, 3)
            read(sock, struct.unpack(">H", read(sock, 2))[0] * 6)
        elif kind == 2:  # Bell
            pass
        elif kind == 3:  # ServerCutText
            read(sock, 3)
            read(sock, struct.unpack(">I", read(sock, 4))[0])
        else:
            raise SystemExit(f"unexpected message {kind}")


if __name__ == "__main__":
    main()
