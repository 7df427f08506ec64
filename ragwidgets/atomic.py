"""Files written whole or not at all.

``atomic_write(path)`` writes to a temporary file in the target's folder, syncs it to disk and
renames it over the target: a reader sees the old file or the new one, never part of one; a
failure or a kill midway leaves the old file as it was, and a failure removes the temporary file.
A kill leaves it behind: the next write of the same target removes the ones no writer holds
(see :func:`clean_stale`). It imports nothing from ragwidgets, so every layer may use it.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
import time
from contextlib import contextmanager, suppress
from typing import IO, Iterator, Optional, Union

try:
    import fcntl
except ImportError:  # Windows: there a file a writer holds open cannot be removed
    fcntl = None

TEMPORARY = re.compile(r"\.(?P<target>.+)\.[0-9a-f]{16}\.tmp")
"""The name of a temporary file of ``atomic_write`` (``.NAME.<16 hex>.tmp`` beside ``NAME``)."""
STALE_S = 60.0
"""How long a temporary file is left unchanged, at least, before another write may remove it."""


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
    clean_stale(folder, name)
    partial = os.path.join(folder, f".{name}.{secrets.token_hex(8)}.tmp")
    try:
        kept = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        kept = None
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    held = _hold(fd)
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
    finally:
        if held is not None:
            os.close(held)
    _sync_folder(folder)


def _hold(fd: int) -> Optional[int]:
    """A second descriptor of ``fd``'s file holding an exclusive lock on it until closed (after the
    rename): the sign that a writer is at work; None where the system has no ``fcntl`` or the
    file system no locks."""
    if fcntl is None:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return None
    return os.dup(fd)


def clean_stale(folder: str, name: str) -> None:
    """Remove the temporary files of ``name`` in ``folder`` (exactly ``.NAME.<16 hex>.tmp``) that a
    killed writer left: unchanged for :data:`STALE_S` seconds and locked by no writer (where the
    system has no ``fcntl``, the age alone: a file a writer holds open cannot be removed there;
    where the file system has no locks, none). Nothing happens to any other file, nor when the
    folder cannot be read."""
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(f".{name}.")
                   and (m := TEMPORARY.fullmatch(e.name)) is not None and m["target"] == name]
    except OSError:
        return
    for entry in entries:
        with suppress(OSError):
            if entry.is_file(follow_symlinks=False) and \
                    time.time() - entry.stat(follow_symlinks=False).st_mtime >= STALE_S:
                _remove_unless_held(entry.path)


def _remove_unless_held(path: str) -> None:
    """Remove ``path`` unless a writer holds its lock (:func:`_hold`)."""
    if fcntl is None:
        os.unlink(path)
        return
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # BlockingIOError (an OSError) when held
        os.unlink(path)
    finally:
        os.close(fd)


def _sync_folder(folder: str) -> None:
    """Make the rename itself durable where the system allows (not on Windows)."""
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
