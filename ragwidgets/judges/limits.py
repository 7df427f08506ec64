"""A bound on requests in flight that holds across threads and event loops."""

from __future__ import annotations

import asyncio
import threading
from collections import deque


class ConcurrencyLimit:
    """At most ``limit`` holders at once, whichever thread or event loop they run on (first come, first served).

    ``async with limit:`` waits without blocking its loop; a slot freed in one thread is handed to
    the next waiter on its own loop. A waiter cancelled while waiting takes no slot.
    """

    def __init__(self, limit: int):
        if limit < 1:
            raise ValueError("a concurrency limit must be at least 1")
        self.limit = limit
        self._free = limit
        self._waiters: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future]] = deque()
        self._lock = threading.Lock()

    async def acquire(self) -> None:
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._free and not self._waiters:
                self._free -= 1
                return
            waiter = (loop, loop.create_future())
            self._waiters.append(waiter)
        try:
            await waiter[1]
        except asyncio.CancelledError:
            with self._lock:
                granted = waiter not in self._waiters
                if not granted:
                    self._waiters.remove(waiter)
            if granted:  # a release handed the slot over just as we were cancelled: pass it on
                self.release()
            raise

    def release(self) -> None:
        with self._lock:
            while self._waiters:
                loop, future = self._waiters.popleft()
                if not loop.is_closed():
                    loop.call_soon_threadsafe(_grant, future)
                    return
            self._free += 1

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, *exc) -> None:
        self.release()


def _grant(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)
