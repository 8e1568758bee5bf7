"""The addresses other devices on the same network can reach this machine at."""
from __future__ import annotations

import socket
import time

_cache: tuple[float, list[str]] = (0.0, [])


def lan_addresses() -> list[str]:
    """This machine's network addresses, looked up at most once a minute."""
    global _cache
    now = time.monotonic()
    if now - _cache[0] > 60 or not _cache[0]:
        _cache = (now, _look_up())
    return list(_cache[1])


def _look_up() -> list[str]:
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
