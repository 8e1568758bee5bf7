"""The addresses other devices on the same network can reach this machine at."""
from __future__ import annotations

import socket


def lan_addresses() -> list[str]:
    found = []
    try:
        # A UDP "connect" sends nothing; it only asks the kernel which interface would be used.
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    out: list[str] = []
    for addr in found:
        if addr not in out and not addr.startswith("127."):
            out.append(addr)
    return out
