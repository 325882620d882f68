#!/usr/bin/env python3
"""What a host on the network finds at HOST PORT (IPv6 link-local as fe80::…%IFACE): prints
`closed` (the host answered and refused: nothing listens), `no answer` (nothing came back
within 3 s), or `security TYPES` from an RFB server's handshake (1 is None: no password)."""
import socket
import sys


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.settimeout(3)
        sock.connect(address)
        version = sock.recv(12)
        if not version.startswith(b"RFB 003."):
            print(f"not RFB: {version!r}")
            return
        sock.sendall(b"RFB 003.008\n")
        count = sock.recv(1)[0]
        types = sock.recv(count) if count else b""
        print("security " + " ".join(map(str, types)))
    except ConnectionRefusedError:
        print("closed")
    except (socket.timeout, TimeoutError):
        print("no answer")
    except OSError as error:
        print(f"error {error}")


main()
