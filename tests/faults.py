"""A full disk, simulated in this process: a file opened for writing under one folder takes half of
the first data written to it, then the write fails with ENOSPC."""

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


def full_disk(monkeypatch, folder) -> None:
    """Writes to files under ``folder`` fail midway (``open`` and ``io.open``, which pathlib uses)."""
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("needs /proc/self/fd to tell which file a descriptor opens")
    real = builtins.open
    folder = os.path.realpath(folder) + os.sep

    def open_(file, mode="r", *args, **kwargs):
        opened = real(file, mode, *args, **kwargs)
        name = os.readlink(f"/proc/self/fd/{file}") if isinstance(file, int) else os.path.realpath(file)
        return _HalfWriter(opened) if set(mode) & set("wax") and name.startswith(folder) else opened

    monkeypatch.setattr(builtins, "open", open_)
    monkeypatch.setattr(io, "open", open_)
