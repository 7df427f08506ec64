"""Files named by a widget's front end, confined to a folder Python chose.

The front end is not the user: in Voilà, any viewer of a dashboard sends the widget's messages.
A path from a message is a name relative to the widget's ``root`` (Python's choice; the explorer's
default is the working folder when it was made), without ``..`` and not absolute, that resolves
(symbolic links followed) inside ``root``. A file to write is named as a file: not a folder (the
root included, or a name ending in a separator), not a symbolic link (even one inside the root),
and not one that exists unless Python allowed overwriting. Paths given in Python's own calls
(``explorer.save_slices(path)``) are not confined.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath, PureWindowsPath

from ..errors import RagWidgetsError


class PathRefused(RagWidgetsError):
    """A path from the front end that leads out of the widget's folder, names no file to write (a
    folder, a symbolic link), or a file it may not overwrite."""


def front_end_path(root: str | os.PathLike, name, *, write: bool, overwrite: bool = False) -> Path:
    """The file ``name`` (a path the front end sent) inside ``root``, symbolic links resolved.
    PathRefused, saying why, when ``name`` is not a non-blank string, is absolute (a drive or a
    leading slash or backslash included), has a ``..`` part, or leads out of ``root`` through a
    symbolic link; and when ``write``, when it names a folder (ends in a separator or ``.``, or
    resolves to a folder: ``root`` itself included), its last part is a symbolic link, or (not
    ``overwrite``) it names a file that exists."""
    if not isinstance(name, str) or not name.strip():
        raise PathRefused(f"a file name must be a non-empty string, not {name!r:.80}")
    if "\0" in name:
        raise PathRefused(f"a file name may not hold a NUL character: {name!r:.80}")
    where = os.path.realpath(root)
    shown = f"{name!r:.200}"
    if any(p.is_absolute() or p.anchor for p in (PurePosixPath(name), PureWindowsPath(name))):
        raise PathRefused(f"{shown} is an absolute path: name a file inside {where} (relative to it)")
    if ".." in PureWindowsPath(name).parts:  # both separators: 'a\\..\\b' is '..' on Windows
        raise PathRefused(f"{shown} has a '..' part: name a file inside {where}")
    target = os.path.realpath(os.path.join(where, name))
    if os.path.commonpath([where, target]) != where:
        raise PathRefused(f"{shown} leads out of {where} (through a symbolic link)")
    if write:
        _check_writable(where, name, target, overwrite)
    return Path(target)


def _check_writable(where: str, name: str, target: str, overwrite: bool) -> None:
    """PathRefused when ``name`` (``target`` resolved, inside ``where``) is no file to write: a
    folder, a symbolic link, or (not ``overwrite``) a file that exists."""
    shown = f"{name!r:.200}"
    folder = f"{shown} names a folder in {where}: name a file to write"
    if name.replace("\\", "/").rsplit("/", 1)[-1] in ("", "."):
        raise PathRefused(folder)
    if os.path.islink(os.path.join(where, name)):
        raise PathRefused(f"{shown} is a symbolic link in {where}: name the file itself")
    if os.path.isdir(target):
        raise PathRefused(folder)
    if not overwrite and os.path.lexists(target):
        raise PathRefused(f"{shown} exists in {where}: choose another name (the widget overwrites a file only "
                          "when Python allows it: overwrite=True)")
