"""Starting a cluster, a server or a browser once more when its first start fails (a machine hiccup,
not a defect of ragwidgets), with the reason in pytest's warnings summary; for the fixtures of every
folder (tests/ is on the path)."""

from __future__ import annotations

import contextlib
import warnings


class StartRetried(UserWarning):
    """A cluster, server or browser that did not start on the first try and was started again."""


@contextlib.contextmanager
def started_once_more(what: str, start):
    """The value of the context ``start()`` opens; when that first start raises, a StartRetried
    warning gives the reason and ``start()`` is tried once more (a second failure raises)."""
    try:
        stack = contextlib.ExitStack()
        value = stack.enter_context(start())
    except Exception as error:
        warnings.warn(StartRetried(f"{what} did not start ({type(error).__name__}: {error}); starting it once more"))
        stack = contextlib.ExitStack()
        value = stack.enter_context(start())
    with stack:
        yield value

