"""Files written whole or not at all.

``atomic_write(path)`` writes to a temporary file in the target's folder, syncs it to disk and
renames it over the target: a reader sees the old file or the new one, never part of one; a
failure or a kill midway leaves the old file as it was, and a failure removes the temporary file.
It imports nothing from ragwidgets, so every layer may use it.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
from contextlib import contextmanager, suppress
from typing import IO, Iterator, Optional, Union

TEMPORARY = re.compile(r"\.(?P<target>.+)\.[0-9a-f]{16}\.tmp")
"""The name of a temporary file of ``atomic_write`` (``.NAME.<16 hex>.tmp`` beside ``NAME``)."""


@contextmanager
def atomic_write(path: Union[str, os.PathLike], mode: str = "w", *, encoding: Optional[str] = None,
                 errors: Optional[str] = None) -> Iterator[IO]:
    """A file object (``mode`` "w" or "wb") whose content replaces ``path`` when the block ends
    without an error. A new file gets the permissions ``open`` would give it (the umask's); a
    replaced one keeps its own. A symbolic link is followed: the file it names is replaced."""
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_write writes a whole file: mode 'w' or 'wb', not {mode!r}")
    target = os.path.realpath(path)
    folder, name = os.path.split(target)
    partial = os.path.join(folder, f".{name}.{secrets.token_hex(8)}.tmp")
    try:
        kept = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        kept = None
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with open(fd, mode, encoding=encoding, errors=errors) as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        if kept is not None:
            os.chmod(partial, kept)
        os.replace(partial, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(partial)
        raise
    _sync_folder(folder)


def _sync_folder(folder: str) -> None:
    """Make the rename itself durable where the system allows (not on Windows)."""
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
