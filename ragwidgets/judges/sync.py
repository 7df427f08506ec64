"""Running a coroutine from synchronous code, also inside a running (Jupyter) event loop."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from .errors import JudgeInterrupted

T = TypeVar("T")

POLL_SECONDS = 0.1  # how often a waiting caller looks for an interrupt
CANCEL_GRACE_SECONDS = 5.0  # how long an interrupted caller waits for the cancelled work to unwind


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion and return its result.

    Without a running loop in this thread it uses ``asyncio.run`` (Ctrl-C cancels the coroutine).
    Inside one (a Jupyter cell) it runs the coroutine on a fresh loop in a worker thread, so nothing
    created for it is attached to the notebook's loop; an interrupt of the waiting caller (the
    kernel's stop button) cancels the coroutine there at once. Either way an interrupt raises
    ``JudgeInterrupted`` (a ``KeyboardInterrupt``) once the cancelled work has unwound.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        try:
            return asyncio.run(coro)
        except KeyboardInterrupt as err:
            raise _interrupted(err) from None
    started = threading.Event()
    handle: dict[str, Any] = {}

    async def main() -> T:
        handle["loop"], handle["task"] = asyncio.get_running_loop(), asyncio.current_task()
        started.set()
        return await coro

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="ragwidgets-judge")
    future = pool.submit(asyncio.run, main())
    try:
        while True:
            try:
                return future.result(timeout=POLL_SECONDS)
            except concurrent.futures.TimeoutError:
                continue
    except KeyboardInterrupt as err:
        if started.wait(CANCEL_GRACE_SECONDS):
            handle["loop"].call_soon_threadsafe(handle["task"].cancel)
            concurrent.futures.wait([future], timeout=CANCEL_GRACE_SECONDS)
        raise _interrupted(err) from None
    finally:
        pool.shutdown(wait=False)


def _interrupted(err: KeyboardInterrupt) -> JudgeInterrupted:
    if isinstance(err, JudgeInterrupted):
        return err
    return JudgeInterrupted("interrupted: the requests in flight were cancelled and no new one was sent; every answer "
                            "received before is in the judge cache, so running again resumes from there")
