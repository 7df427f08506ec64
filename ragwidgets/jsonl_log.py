"""Append-only JSONL logs a person's work is kept in (the reviews, the failure notes): one JSON
object per line, each beginning ``{"query_id"`` (:data:`MARK`), a later line for the same key wins.

Reading (:func:`read_records`) skips a damaged line (not UTF-8 JSON, as one cut short is) with an
InputWarning naming the file and line, and reads every whole line around it, including a whole
record written onto a cut-short start; a JSON line that is not a record is an InputError naming
the file, line and field. :class:`AppendLog` appends lines under a file lock, each on a fresh
line, with fsync: a line it acknowledged is never lost, and a crash or a full disk loses at most
the line being written.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable
from contextlib import suppress

from .errors import InputError, InputWarning

try:
    import fcntl
except ImportError:  # Windows: appends take no lock
    fcntl = None

MARK = b'{"query_id"'
"""How every line a log writes begins (and nowhere else in it: a ``"`` in a value is escaped)."""

FromJson = Callable[[object, str], object]  # (JSON value, where) -> record, or InputError


def _json(raw: bytes, where: str, what: str):
    """The JSON value of one line; a ValueError when it is not UTF-8 JSON, an InputError naming
    ``where`` when it is nested too deep to read."""
    try:
        return json.loads(raw.decode("utf-8").removeprefix("\ufeff"))
    except RecursionError:
        raise InputError(f"a JSON value nested too deep: not a {what}", sample=where) from None


def parse_line(raw: bytes, where: str, from_json: FromJson, what: str) -> tuple[object | None, str | None]:
    """The record of one line (bytes, no newline) and what was wrong with it. A line that is not
    UTF-8 JSON, as one cut short is, gives no record, or the whole record written onto it after
    its cut-short start (by a writer that did not end the file on a newline first); a JSON line
    that is not a record is an InputError naming ``where`` and the field."""
    try:
        value = _json(raw, where, what)
    except InputError:
        raise
    except ValueError as err:
        return _glued(raw, where, from_json, what) or (None, f"skipped, not a whole JSON line ({err})")
    return from_json(value, where), None


def _glued(raw: bytes, where: str, from_json: FromJson, what: str) -> tuple[object, str] | None:
    """The record that ends a damaged line after a cut-short start, with a note saying so; None when none does."""
    start = raw.rfind(MARK)
    if start > 0:
        with suppress(ValueError):  # InputError included: then the line is just damaged
            record = from_json(_json(raw[start:], where, what), where)
            return record, f"its first {start} bytes skipped (a line cut short, then a {what} written onto it)"
    return None


def read_records(path, from_json: FromJson, what: str) -> list:
    """The records of a JSONL file (blank lines skipped, damaged ones skipped with an InputWarning);
    a path that is missing or a folder is an InputError. ``what`` names a record in messages."""
    name = os.fspath(path)
    if os.path.isdir(name):
        raise InputError(f"{name}: a folder, not a {what}s file")
    try:
        with open(name, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise InputError(f"{name}: no such {what}s file") from None
    except OSError as err:
        raise InputError(f"{name}: cannot read the {what}s file ({err.strerror or err})") from None
    return parse_records(data, name, from_json, what)


def parse_records(data: bytes, name: str, from_json: FromJson, what: str) -> list:
    """The records of a JSONL file's bytes (see :func:`read_records`; ``name`` the file's, for messages)."""
    lines = data.split(b"\n")
    items = []
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        where = f"{name} line {number}"
        record, damage = parse_line(raw, where, from_json, what)
        if damage and record is None and number == len(lines):  # no newline: the log stopped midway
            damage = f"skipped, cut short (no newline, not JSON): the {what} being written when the log stopped"
        if damage:
            warnings.warn(f"{where}: {damage}", InputWarning, stacklevel=4)
        if record is not None:
            items.append(record)
    return items


def read_noting(read: Callable[[], object]) -> tuple[object, list[str]]:
    """What ``read()`` returns and the InputWarnings it gave (a damaged line's each), for a command
    line to print."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", InputWarning)
        value = read()
    return value, [str(w.message) for w in seen if issubclass(w.category, InputWarning)]


class AppendLog:
    """An append-only JSONL file: :meth:`write_lines` writes whole lines, then fsync; lines it
    returned from (acknowledged) are on disk, and every later read gives them.

    Each write holds an exclusive lock on the file (``fcntl.flock``; no lock where the system lacks
    it, e.g. Windows: one writer at a time there) while it ends the file on a newline (a last line
    cut short, never acknowledged, is cut off with an InputWarning; a whole one gets its newline)
    and writes its lines. A write that fails (a full disk) raises and cuts its part off again: it
    is not acknowledged, and the next line starts clean. Subclasses say how a line is read
    (``from_json``) and what a record is called (``what``)."""

    what = "record"

    def __init__(self, path, from_json: FromJson):
        self.path = os.fspath(path)
        self._from_json = from_json

    def write_lines(self, objects: list[dict]) -> None:
        """Write each JSON object (each beginning with ``query_id``) as one line, durably, in one locked write."""
        self._locked(lambda f, end: objects)

    def write_computed(self, compute: Callable[[list], list[dict]]) -> list[dict]:
        """Under the lock, the objects ``compute`` makes of every record in the file now (other
        writers' lines included), written as lines, durably; returns them. A change computed from
        what is in force (a rename) is computed here, so it never overwrites a line another writer
        appended since this log was opened."""
        return self._locked(lambda f, end: compute(self._records(f, end)))

    def _records(self, f, end: int) -> list:
        """The records of the open, locked file's first ``end`` bytes (damaged lines skipped quietly:
        they were named when the file was read)."""
        f.seek(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", InputWarning)
            return parse_records(f.read(end), self.path, self._from_json, self.what)

    def _locked(self, make) -> list[dict]:
        """Open and lock the file, end it on a newline, write the objects ``make(f, end)`` gives as
        lines and fsync; a write that fails cuts its part off again and raises."""
        with open(self.path, "a+b", buffering=0) as f:
            _lock(f)
            end = self._mend(f)
            objects = make(f, end)
            data = b"".join((json.dumps(o, ensure_ascii=False) + "\n").encode("utf-8") for o in objects)
            f.seek(0, os.SEEK_END)
            try:
                _write_all(f, data)
                os.fsync(f.fileno())
            except BaseException:
                with suppress(OSError):
                    f.truncate(end)
                raise
        return objects

    def _mend(self, f) -> int:
        """End the open log on a newline (see the class docstring); its size then."""
        end = f.seek(0, os.SEEK_END)
        start = _line_start(f, end)
        if start == end:
            return end
        f.seek(start)
        try:
            whole = parse_line(f.read(end - start), f"{self.path}, its last line", self._from_json,
                               self.what)[0] is not None
        except InputError:  # whole JSON, not a record: a person's line, kept (reading names it)
            whole = True
        if not whole:
            f.truncate(start)
            warnings.warn(f"{self.path}: its last line, cut short (no newline, not JSON), was cut off before "
                          f"appending: a {self.what} being written when its writer stopped", InputWarning,
                          stacklevel=4)
            return start
        _write_all(f, b"\n")
        return end + 1


def _lock(f) -> None:
    """Hold an exclusive lock on the open file ``f`` until it is closed (waits for another holder);
    nothing where the system has no ``fcntl`` or the file system no locks."""
    if fcntl is not None:
        with suppress(OSError):
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)


def _line_start(f, end: int) -> int:
    """Where the last line of the open file ``f`` (``end`` bytes) starts: ``end`` when it ends on a newline."""
    position = end
    while position > 0:
        step = min(position, 1 << 16)
        position -= step
        f.seek(position)
        newline = f.read(step).rfind(b"\n")
        if newline >= 0:
            return position + newline + 1
    return 0


def _write_all(f, data: bytes) -> None:
    """Write all of ``data`` to the unbuffered file ``f`` (a write may store only part)."""
    view = memoryview(data)
    while view:
        view = view[f.write(view):]
