"""Running a coroutine from synchronous code, also inside a running (Jupyter) event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion and return its result.

    Without a running loop in this thread it uses ``asyncio.run``. Inside one (a Jupyter cell) it
    runs the coroutine on a fresh loop in a worker thread and waits, so nothing created for it is
    ever attached to the notebook's loop.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ragwidgets-judge") as pool:
        return pool.submit(asyncio.run, coro).result()
