"""The on-disk judgement caches, keyed by a hash of who judged what with which prompt: one sqlite
file (``JudgeCache``, the default), or one small file per answer under a directory
(``DirectoryCache``, for a filesystem that several machines share). Any object with ``get``,
``get_many`` and ``put`` (and, to reach Dask workers, picklable) can stand in for either. A damaged
entry (a file cut short or edited by hand) is a miss, logged at WARNING with its file: the answer
is asked again and stored over it.

Both also keep traces (``put_traces``, ``trace``, ``get_trace``): what one model call was sent and
answered, stored once per call under its own key, and pointed at by every answer the call gave
(``put(..., trace="KEY#i")``: item i of that call). One check call answers up to
``check_batch_size`` claims about one passage, so one copy of its messages serves all of them,
where a copy per claim would store the passage and the prompt that many times; a claim's answer
grows by one pointer (about 70 bytes), and a system prompt, the same in every call, is one trace
named by the others (see ``BaseJudge._store_trace``). An answer stored without a pointer (before
traces were kept, or by a judge that keeps none) reads back as having no trace."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Optional, Union

from ..atomic import atomic_write
from ..errors import RagWidgetsError

logger = logging.getLogger("ragwidgets.judges")

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()
"""Returned by ``JudgeCache.get`` for a key the cache does not hold."""

CACHE_DIR_ENV = "RAGWIDGETS_CACHE_DIR"
BATCH = 500  # keys per query of get_many (sqlite's limit on parameters is 999 in old builds)


def default_cache_path() -> Path:
    """``$RAGWIDGETS_CACHE_DIR/judge_cache.sqlite``, else the user's cache dir for ``ragwidgets``."""
    if os.environ.get(CACHE_DIR_ENV):
        base = Path(os.environ[CACHE_DIR_ENV])
    elif sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local")) / "ragwidgets" / "Cache"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches" / "ragwidgets"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ragwidgets"
    return base / "judge_cache.sqlite"


def cache_key(identity: Mapping[str, Any], operation: str, inputs: Mapping[str, Any]) -> str:
    """SHA-256 of the judge identity (class, model, host, prompt version), operation and input:
    of ``{"input": ..., "judge": ..., "operation": ...}`` as compact JSON with sorted keys."""
    return key_from_json(_json(dict(identity)), operation, inputs)


def key_from_json(identity_json: str, operation: str, inputs: Mapping[str, Any]) -> str:
    """``cache_key`` with the identity already written as JSON (the same bytes are hashed: the
    identity, written once per judge and operation, is most of the work)."""
    payload = f'{{"input":{_json(dict(inputs))},"judge":{identity_json},"operation":{_json(operation)}}}'
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _pointed(pointer: Optional[str], text: Union[str, bytes, None], where: str) -> tuple[Optional[dict], Optional[int]]:
    """The trace ``pointer`` (``"KEY#item"``) leads to, read from its JSON ``text``, and the item;
    ``(None, None)`` without a pointer, or for a trace that is gone or damaged (logged at WARNING)."""
    if pointer is None:
        return None, None
    try:
        trace = json.loads(text) if text is not None else None
        item = int(pointer.rpartition("#")[2])
    except (ValueError, TypeError) as err:
        trace, item = None, None
        logger.warning("judge cache: %s is damaged (%s: %s); read as no trace", where, type(err).__name__, err)
    if not isinstance(trace, dict):
        return None, None
    return trace, item


def _answer(text: Union[str, bytes], where: str, entry: bool = False) -> Any:
    """The answer stored as JSON ``text`` (``entry``: a DirectoryCache file, the answer under "value");
    ``MISSING`` for a damaged one, logged at WARNING naming ``where``."""
    try:
        value = json.loads(text)
        if entry:
            value = value["value"]
        why = "no answer in it"
    except (ValueError, TypeError, KeyError) as err:  # not UTF-8, not JSON, not an entry
        value, why = None, f"{type(err).__name__}: {err}"
    if value is None:
        logger.warning("judge cache: %s is damaged (%s); read as a miss, so the answer is asked again", where, why)
        return MISSING
    return value


def _wal(conn: sqlite3.Connection, wait: float = 30.0) -> None:
    """Put the file in WAL mode. sqlite answers "database is locked" at once, without waiting, to a
    second process switching a new file at the same moment: that is retried for up to ``wait`` s."""
    deadline = time.monotonic() + wait
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


class JudgeCache:
    """Judgements stored in one sqlite file; safe to share between threads and judges.

    Only answers are stored (a value of None, i.e. unjudged, is refused), so a failed or
    interrupted run leaves nothing wrong behind and re-running resumes from what was answered.
    """

    def __init__(self, path: Union[str, os.PathLike, None] = None):
        self.path = Path(path) if path is not None else default_cache_path()
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
            try:
                _wal(conn)
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute(
                    "CREATE TABLE IF NOT EXISTS judgements ("
                    " key TEXT PRIMARY KEY, operation TEXT NOT NULL, value TEXT NOT NULL, created REAL NOT NULL,"
                    " trace TEXT)"
                )
                conn.execute("CREATE TABLE IF NOT EXISTS traces (key TEXT PRIMARY KEY, value TEXT NOT NULL,"
                             " created REAL NOT NULL)")
                columns = {row[1] for row in conn.execute("PRAGMA table_info(judgements)")}
                if "trace" not in columns:  # a cache written before traces were kept
                    with contextlib.suppress(sqlite3.OperationalError):  # another process added it first
                        conn.execute("ALTER TABLE judgements ADD COLUMN trace TEXT")
                conn.commit()
            except sqlite3.DatabaseError as err:  # not a database, or one damaged past its rows
                conn.close()
                raise RagWidgetsError(f"judge cache {self.path} cannot be used ({err}): move it aside, or give "
                                      "another cache") from None
            self._conn = conn
        return self._conn

    def get(self, key: str) -> Any:
        """The stored value, or ``MISSING``."""
        with self._lock:
            row = self._connection().execute("SELECT value FROM judgements WHERE key = ?", (key,)).fetchone()
        return MISSING if row is None else _answer(row[0], f"{self.path}, key {key}")

    def get_many(self, keys: list[str]) -> dict[str, Any]:
        """The stored values of those ``keys`` the cache holds (one query per ``BATCH`` keys)."""
        found: dict[str, Any] = {}
        unique = list(dict.fromkeys(keys))
        with self._lock:
            conn = self._connection()
            for start in range(0, len(unique), BATCH):
                chunk = unique[start : start + BATCH]
                marks = ",".join("?" * len(chunk))
                rows = conn.execute(f"SELECT key, value FROM judgements WHERE key IN ({marks})", chunk).fetchall()
                for key, text in rows:
                    value = _answer(text, f"{self.path}, key {key}")
                    if value is not MISSING:
                        found[key] = value
        return found

    def put(self, key: str, operation: str, value: Any, trace: Optional[str] = None) -> None:
        """Store an answer (never None: unjudged results are not cached); ``trace``: the pointer
        ``"TRACE_KEY#item"`` to the call that gave it (None: none kept)."""
        if value is None:
            raise ValueError("an unjudged result (None) is never cached")
        encoded = json.dumps(value, ensure_ascii=False)
        with self._lock:
            conn = self._connection()
            conn.execute(
                "INSERT OR REPLACE INTO judgements (key, operation, value, created, trace) VALUES (?, ?, ?, ?, ?)",
                (key, operation, encoded, time.time(), trace),
            )
            conn.commit()

    def put_traces(self, traces: Mapping[str, Mapping[str, Any]]) -> None:
        """Store traces (plain JSON), each under its key, in one transaction."""
        rows = [(key, json.dumps(dict(trace), ensure_ascii=False), time.time()) for key, trace in traces.items()]
        with self._lock:
            conn = self._connection()
            conn.executemany("INSERT OR REPLACE INTO traces (key, value, created) VALUES (?, ?, ?)", rows)
            conn.commit()

    def get_trace(self, key: str) -> Optional[dict]:
        """The trace stored under ``key`` itself (None: none, or damaged)."""
        with self._lock:
            row = self._connection().execute("SELECT value FROM traces WHERE key = ?", (key,)).fetchone()
        return None if row is None else _pointed(f"{key}#0", row[0], f"{self.path}, trace {key}")[0]

    def trace(self, key: str) -> Any:
        """``(answer, trace, item)`` of the answer under ``key``: the call's trace and the answer's
        place in it, or ``(answer, None, None)`` when none was kept (or it is damaged); ``MISSING``
        when there is no answer."""
        with self._lock:
            row = self._connection().execute(
                "SELECT j.value, j.trace, t.value FROM judgements j LEFT JOIN traces t"
                " ON t.key = substr(j.trace, 1, instr(j.trace, '#') - 1) WHERE j.key = ?", (key,)).fetchone()
        if row is None:
            return MISSING
        value = _answer(row[0], f"{self.path}, key {key}")
        if value is MISSING:
            return MISSING
        return (value, *_pointed(row[1], row[2], f"{self.path}, trace of key {key}"))

    def __contains__(self, key: str) -> bool:
        return self.get(key) is not MISSING

    def __len__(self) -> int:
        with self._lock:
            return self._connection().execute("SELECT COUNT(*) FROM judgements").fetchone()[0]

    def clear(self) -> None:
        with self._lock:
            conn = self._connection()
            conn.execute("DELETE FROM judgements")
            conn.execute("DELETE FROM traces")
            conn.commit()

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __repr__(self) -> str:
        return f"JudgeCache({str(self.path)!r})"

    def __getstate__(self) -> dict[str, Any]:
        """Only the file's absolute path travels (another process opens its own connection)."""
        return {"path": self.path.absolute()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["path"])


class DirectoryCache:
    """Judgements as one small JSON file each, ``DIR/<key[:2]>/<key>.json``: a cache several
    machines can share over a network filesystem, where sqlite's locks do not hold.

    Keys are JudgeCache's. A file is written whole under a temporary name, then renamed
    (``atomic_write``), so a reader never sees half an answer, and two workers storing the same
    key leave one of two equal answers. Only answers are stored, as in JudgeCache.
    """

    def __init__(self, path: Union[str, os.PathLike]):
        self.path = Path(path).absolute()
        self.path.mkdir(parents=True, exist_ok=True)

    def _file(self, key: str) -> Path:
        return self.path / key[:2] / f"{key}.json"

    def get(self, key: str) -> Any:
        """The stored value, or ``MISSING``."""
        file = self._file(key)
        try:
            data = file.read_bytes()
        except FileNotFoundError:
            return MISSING
        return _answer(data, str(file), entry=True)

    def get_many(self, keys: list[str]) -> dict[str, Any]:
        """The stored values of those ``keys`` the cache holds."""
        found = {}
        for key in dict.fromkeys(keys):
            value = self.get(key)
            if value is not MISSING:
                found[key] = value
        return found

    def put(self, key: str, operation: str, value: Any, trace: Optional[str] = None) -> None:
        """Store an answer (never None: unjudged results are not cached); ``trace`` as in JudgeCache."""
        if value is None:
            raise ValueError("an unjudged result (None) is never cached")
        entry = {"operation": operation, "value": value, "created": time.time()}
        if trace is not None:
            entry["trace"] = trace
        self._write(self._file(key), entry)

    def put_traces(self, traces: Mapping[str, Mapping[str, Any]]) -> None:
        """Store traces, each under its key (``DIR/traces/<key[:2]>/<key>.json``)."""
        for key, trace in traces.items():
            self._write(self._trace_file(key), dict(trace))

    def get_trace(self, key: str) -> Optional[dict]:
        """The trace stored under ``key`` itself (None: none, or damaged)."""
        try:
            text = self._trace_file(key).read_bytes()
        except FileNotFoundError:
            return None
        return _pointed(f"{key}#0", text, str(self._trace_file(key)))[0]

    def trace(self, key: str) -> Any:
        """``(answer, trace, item)`` as in JudgeCache; ``MISSING`` when there is no answer."""
        file = self._file(key)
        try:
            data = file.read_bytes()
        except FileNotFoundError:
            return MISSING
        value = _answer(data, str(file), entry=True)
        if value is MISSING:
            return MISSING
        pointer = json.loads(data).get("trace")
        text = None
        if isinstance(pointer, str):
            with contextlib.suppress(FileNotFoundError):
                text = self._trace_file(pointer.rpartition("#")[0]).read_bytes()
        return (value, *_pointed(pointer if isinstance(pointer, str) else None, text, f"{file}'s trace"))

    def _trace_file(self, key: str) -> Path:
        return self.path / "traces" / key[:2] / f"{key}.json"

    @staticmethod
    def _write(target: Path, entry: dict) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        with atomic_write(target, encoding="utf-8") as out:
            out.write(json.dumps(entry, ensure_ascii=False))

    def __contains__(self, key: str) -> bool:
        return self.get(key) is not MISSING

    def __len__(self) -> int:
        return sum(1 for _ in self.path.glob("??/*.json"))

    def clear(self) -> None:
        for file in [*self.path.glob("??/*.json"), *self.path.glob("traces/??/*.json")]:
            file.unlink(missing_ok=True)

    def close(self) -> None:
        """Nothing to close (every call opens its own file)."""

    def __repr__(self) -> str:
        return f"DirectoryCache({str(self.path)!r})"


CacheSetting = Union[JudgeCache, DirectoryCache, str, os.PathLike, None, bool]


def resolve_cache(cache: CacheSetting):
    """The cache a judge uses: ``"default"`` → the default sqlite file; a directory (one that
    exists, or a path ending in ``/``) → a ``DirectoryCache`` there; another path → a sqlite file
    there; a cache object (anything with ``get``, ``get_many`` and ``put``) → itself; None/False → none."""
    if cache is None or cache is False:
        return None
    if all(hasattr(cache, name) for name in ("get", "get_many", "put")):
        return cache
    if cache is True or cache == "default":
        return JudgeCache()
    if os.fspath(cache).endswith(("/", os.sep)) or Path(cache).is_dir():
        return DirectoryCache(cache)
    return JudgeCache(cache)
