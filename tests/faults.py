"""Faults of a file system, simulated in this process for files opened for writing under one
folder: a full disk (a write stores half its data, then fails with ENOSPC) and short writes (a
write stores a few bytes and says how many, as ``write(2)`` may)."""

from __future__ import annotations

import builtins
import errno
import io
import os

import pytest


class _HalfWriter:
    """A file whose first write stores half its data and then fails, as on a full disk."""

    def __init__(self, file):
        self._file = file

    def write(self, data):
        self._file.write(data[: len(data) // 2])
        self._file.flush()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __getattr__(self, name):
        return getattr(self._file, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._file.close()


class _ShortWriter(_HalfWriter):
    """A file whose writes store at most ``size`` bytes each and return how many they stored."""

    def __init__(self, file, size: int):
        super().__init__(file)
        self._size = size

    def write(self, data):
        return self._file.write(data[: self._size])


def _faulty(monkeypatch, folder, wrap) -> None:
    """Files opened for writing under ``folder`` are wrapped in ``wrap`` (``open`` and ``io.open``,
    which pathlib uses)."""
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("needs /proc/self/fd to tell which file a descriptor opens")
    real = builtins.open
    folder = os.path.realpath(folder) + os.sep

    def open_(file, mode="r", *args, **kwargs):
        opened = real(file, mode, *args, **kwargs)
        name = os.readlink(f"/proc/self/fd/{file}") if isinstance(file, int) else os.path.realpath(file)
        return wrap(opened) if set(mode) & set("wax") and name.startswith(folder) else opened

    monkeypatch.setattr(builtins, "open", open_)
    monkeypatch.setattr(io, "open", open_)


def full_disk(monkeypatch, folder) -> None:
    """Writes to files under ``folder`` fail midway."""
    _faulty(monkeypatch, folder, _HalfWriter)


def short_writes(monkeypatch, folder, size: int = 1) -> None:
    """Writes to files under ``folder`` store at most ``size`` bytes each (unbuffered files only:
    a buffered one writes the rest itself)."""
    _faulty(monkeypatch, folder, lambda file: _ShortWriter(file, size))
