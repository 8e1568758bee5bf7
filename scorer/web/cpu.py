"""CPU-heavy work (reading a photo, learning a box) kept off the server's event loop.

``python -m scorer serve`` runs gevent workers: every connection of a worker is a greenlet on one
event loop, so a photo read on that loop would hold every other phone of the worker for as long
as OpenCV works on it (1–2 s for a large photo). Here the work runs in one of gevent's native
threads instead and the greenlet waits for it; OpenCV releases the GIL while it decodes and
filters, so the loop goes on answering the others, and at a lower priority, so the kernel
gives the loop the CPU first when both want it. The request's context (its language among
others) goes with the work. Outside gevent (the development server, the tests' threads) the work
simply runs where it is called.
"""
from __future__ import annotations

import contextvars
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
PHOTO_NICENESS = 10  # added to a photo thread's nice value (0 normal, 19 lowest priority)


def _gevent_hub() -> Any:
    """gevent's hub when this process is gevent's (monkey-patched threads), else None."""
    if "gevent" not in sys.modules:
        return None
    from gevent import get_hub, monkey
    return get_hub() if monkey.is_module_patched("threading") else None


def _behind_the_others(work: Callable[..., T], *args: Any) -> T:
    """``work`` at a lower CPU priority than the worker's event loop: on a busy server the kernel
    runs the loop (everyone else's requests) first and the photo with what is left. On Linux a
    thread has its own nice value, and a thread may lower its own priority; elsewhere, as is."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), PHOTO_NICENESS)
    except (AttributeError, OSError):
        pass
    return work(*args)


def off_the_loop(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)``, run in a native thread under gevent; its answer or its exception."""
    hub = _gevent_hub()
    context = contextvars.copy_context()
    if hub is None:
        return context.run(work, *args)
    return hub.threadpool.apply(context.run, (_behind_the_others, work, *args))
