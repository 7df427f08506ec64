"""Files named by a widget's front end, confined to a folder Python chose.

The front end is not the user: in Voilà, any viewer of a dashboard sends the widget's messages.
A path from a message is a name relative to the widget's ``root`` (Python's choice; the explorer's
default is the working folder when it was made), without ``..`` and not absolute, that resolves
(symbolic links followed) inside ``root``; a file to write must not exist yet unless Python allowed
overwriting. Paths given in Python's own calls (``explorer.save_slices(path)``) are not confined.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath, PureWindowsPath

from ..errors import RagWidgetsError


class PathRefused(RagWidgetsError):
    """A path from the front end that leads out of the widget's folder, or to a file it may not overwrite."""


def front_end_path(root: str | os.PathLike, name, *, write: bool, overwrite: bool = False) -> Path:
    """The file ``name`` (a path the front end sent) inside ``root``, symbolic links resolved.
    PathRefused, saying why, when ``name`` is not a non-blank string, is absolute (a drive or a
    leading slash or backslash included), has a ``..`` part, leads out of ``root`` through a
    symbolic link, or (``write`` and not ``overwrite``) names a file that exists."""
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
    if write and not overwrite and os.path.lexists(target):
        raise PathRefused(f"{shown} exists in {where}: choose another name (the widget overwrites a file only "
                          "when Python allows it: overwrite=True)")
    return Path(target)
