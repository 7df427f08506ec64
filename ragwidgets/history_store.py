"""A run history: one SQLite file (stdlib :mod:`sqlite3`) a team keeps in its repository or on a share.

Each run added keeps its records (zlib-compressed JSON lines, so ``history:NAME`` can be scored
and compared later without the original file) and, per metric, the summary of
:func:`~ragwidgets.analysis.summary.summarize`: the mean over defined samples, its 95% interval
(:func:`~ragwidgets.analysis.intervals.mean_interval`) and how many samples were defined,
Undefined and not computable. A run's metrics are those of ``rw.evaluate(records)`` with the
default options.

The file is one file: SQLite's rollback journal (``journal_mode=DELETE``), never WAL, so no
``-wal`` / ``-shm`` files are left beside it and the file can be committed to git as it is.
Writers from several processes take SQLite's write lock (``BEGIN IMMEDIATE``) and wait up to
:data:`TIMEOUT` seconds for one another. The schema is versioned in the ``meta`` table; a file
written by a newer schema is refused, never guessed at.

Tables: ``meta`` (key, value); ``runs`` (id, name UNIQUE, added: ISO time in UTC, commit_sha,
judge, accepted 0/1, n samples, source: a description of where the run came from, version: the
ragwidgets that scored it, records: the compressed records); ``metrics`` (run_id, metric, mean,
lo, hi, defined, undefined, not_computable). Names, commits, judges and sources are stored as
given and read back as text.
"""

from __future__ import annotations

import sqlite3
import zlib
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pandas as pd

from .analysis.compare import judge_info
from .analysis.summary import summarize
from .analysis.table import run_table
from .engine import evaluate
from .engine.evaluate import Scores
from .errors import InputError
from .loaders import gc_paused, read_records
from .sources import is_scoring_result, is_table, read_run

SCHEMA_VERSION = 1
DEFAULT_PATH = "ragwidgets-history.sqlite"
TIMEOUT = 60.0  # seconds a writer waits for another's lock
KEYWORDS = ("latest", "accepted")  # what get() reads as the latest run / the latest accepted run
MAX_TEXT = 1000  # characters of a name, commit or judge
RUN_COLUMNS = ["name", "time", "commit", "judge", "accepted", "n"]
METRIC_COLUMNS = ["name", "metric", "mean", "lo", "hi", "defined", "undefined", "not_computable"]
_ENCODER, _DECODER = msgspec.json.Encoder(), msgspec.json.Decoder()
_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, added TEXT NOT NULL,
    commit_sha TEXT, judge TEXT, accepted INTEGER NOT NULL DEFAULT 0, n INTEGER NOT NULL,
    source TEXT NOT NULL, version TEXT NOT NULL, records BLOB NOT NULL);
CREATE TABLE metrics (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, metric TEXT NOT NULL,
    mean REAL, lo REAL, hi REAL, defined INTEGER NOT NULL, undefined INTEGER NOT NULL,
    not_computable INTEGER NOT NULL, PRIMARY KEY (run_id, metric));
"""


@dataclass(frozen=True)
class RunEntry:
    """One run of a history as stored (``records`` aside: :meth:`History.get`)."""

    name: str
    time: str  # when it was added, ISO 8601 in UTC
    commit: str | None
    judge: str | None
    accepted: bool
    n: int  # samples
    source: str  # where it came from, as described when added
    version: str  # the ragwidgets that scored it


def _text(value: Any, field: str, *, optional: bool = True) -> str | None:
    """``value`` as a stored text field: a non-blank string of at most MAX_TEXT characters (None when optional)."""
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT or "\x00" in value:
        raise InputError(f"must be a non-empty text of at most {MAX_TEXT} characters without NUL, got "
                         f"{value!r:.80}", field=field)
    return value


def _records_of(source) -> tuple[list, str]:
    """(RAGChecker records, a description) of a run source: a path (JSON, JSONL, optionally gzipped;
    Parquet, CSV), records or ``{"results": [...]}``, a table (a DataFrame, ragas, Phoenix) or a
    scorer's ScoringResult (its records, reviewed labels included)."""
    if isinstance(source, Scores):
        raise InputError("the history keeps a run's records to score it again: give its file, its records or the "
                         "scorer's result, not Scores", field="source")
    if is_scoring_result(source):
        return list(source.records), "ScoringResult"
    if is_table(source):
        run = read_run(source)
        return run.records, str(source) if isinstance(source, (str, Path)) else f"{type(source).__name__} ({run.shape})"
    records = read_records(source)
    if isinstance(source, (str, Path)) and not (isinstance(source, str) and source.lstrip()[:1] in "{["):
        return records, str(source)
    return records, f"{len(records)} records"


def _lines(records: list) -> bytes:
    """The records as JSON lines (msgspec: NaN as null); a record JSON cannot hold is an InputError naming it."""
    try:
        return _ENCODER.encode_lines(records)
    except (TypeError, ValueError, OverflowError, msgspec.MsgspecError):
        for i, record in enumerate(records):
            try:
                _ENCODER.encode(record)
            except (TypeError, ValueError, OverflowError, msgspec.MsgspecError) as err:
                qid = record.get("query_id") if isinstance(record, dict) else None
                raise InputError(f"cannot be stored as JSON: {err}", sample=f"sample {i} (query_id {qid!r})") from None
        raise


def _unpack(blob: bytes) -> list[dict]:
    with gc_paused():  # millions of small objects at 100k samples, none cyclic
        return _DECODER.decode_lines(zlib.decompress(blob))


def _version() -> str:
    try:
        return metadata.version("ragwidgets")
    except metadata.PackageNotFoundError:
        return "unknown"


def _number(v) -> float | None:
    return None if v is None or (isinstance(v, float) and np.isnan(v)) else float(v)


class History:
    """The run history in the SQLite file at ``path`` (default: :data:`DEFAULT_PATH` in the working
    folder), created by the first :meth:`add`."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(DEFAULT_PATH if path is None else path)

    def __repr__(self) -> str:
        return f"History({str(self.path)!r})"

    def _connect(self, *, write: bool = False) -> sqlite3.Connection:
        """A connection in autocommit mode (transactions begun explicitly) to a checked history file;
        ``write``: the file (and its folder) is created if missing, and its journal set back to
        DELETE should another tool have left it in WAL mode."""
        if not write and not self.path.exists():
            raise InputError(f"no run history at {self.path}: add a run first (ragwidgets history add RUN --name N)")
        if self.path.is_dir():
            raise InputError(f"{self.path} is a directory; the run history is one SQLite file")
        if write:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=TIMEOUT, isolation_level=None)
        try:
            db.execute("PRAGMA foreign_keys = ON")
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not tables and write:
                db.execute("BEGIN IMMEDIATE")
                if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone():  # another writer's?
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            db.execute(statement)
                    db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
                db.execute("COMMIT")
            elif "meta" not in tables:
                raise InputError(f"{self.path} is an SQLite file but not a ragwidgets run history (no meta table)")
            row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            version = int(row[0]) if row and str(row[0]).isdigit() else None
            if version is None or version > SCHEMA_VERSION:
                raise InputError(f"{self.path} is a run history of schema version {row[0] if row else 'unknown'!r}; "
                                 f"this ragwidgets reads version {SCHEMA_VERSION}: upgrade ragwidgets")
            if write:
                db.execute("PRAGMA journal_mode = DELETE")
        except sqlite3.DatabaseError as err:
            db.close()
            raise InputError(f"{self.path} is not a run history ({err})") from None
        except BaseException:
            db.close()
            raise
        return db

    def add(self, source, name: str, commit: str | None = None, judge: str | None = None,
            accepted: bool = False, *, replace: bool = False) -> RunEntry:
        """Score ``source`` (a run's path, records, table or ScoringResult) and store it as ``name``.
        A name already stored is an InputError unless ``replace`` (the run is then added anew).
        ``judge`` defaults to a ScoringResult's judge (:func:`~ragwidgets.analysis.compare.judge_info`)."""
        name = _text(name, "name", optional=False)
        if name in KEYWORDS:
            raise InputError(f"{name!r} is how a run is asked for (latest, accepted); name the run otherwise",
                             field="name")
        if judge is None and is_scoring_result(source):
            judge = judge_info(source).judge
        commit, judge = _text(commit, "commit"), _text(judge, "judge")
        if not isinstance(accepted, bool):
            raise InputError(f"must be True or False, got {accepted!r:.80}", field="accepted")
        if not replace and self.path.is_file() and name in {e.name for e in self.entries()}:
            raise self._clash(name)  # before scoring; checked again under the write lock
        with gc_paused():
            records, described = _records_of(source)
            if not records:
                raise InputError("the run has no samples", field="source")
            lines = _lines(records)
        del records
        blob = zlib.compress(lines, 6)
        array = b"[" + lines.rstrip(b"\n").replace(b"\n", b",") + b"]"  # one JSON array: the loaders' fast path
        summary = summarize(run_table(evaluate(array)))
        del array
        entry = RunEntry(name, datetime.now(timezone.utc).isoformat(timespec="seconds"), commit, judge, accepted,
                         lines.count(b"\n"), described, _version())
        db = self._connect(write=True)
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                if db.execute("SELECT 1 FROM runs WHERE name = ?", (name,)).fetchone():
                    if not replace:
                        raise self._clash(name)
                    db.execute("DELETE FROM runs WHERE name = ?", (name,))
                run_id = db.execute(
                    "INSERT INTO runs (name, added, commit_sha, judge, accepted, n, source, version, records) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (name, entry.time, commit, judge, int(accepted), entry.n, described, entry.version, blob)).lastrowid
                db.executemany("INSERT INTO metrics VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [
                    (run_id, metric, _number(row["mean"]), _number(row["ci_low"]), _number(row["ci_high"]),
                     int(row["defined"]), int(row["undefined"]), int(row["not_computable"]))
                    for metric, row in summary.iterrows()])
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        finally:
            db.close()
        return entry

    def accept(self, name: str) -> RunEntry:
        """Mark the run ``name`` (or "latest") accepted: the base :meth:`get` ("accepted") gives."""
        name = self.entry(name).name
        db = self._connect(write=True)
        try:
            db.execute("BEGIN IMMEDIATE")
            changed = db.execute("UPDATE runs SET accepted = 1 WHERE name = ?", (name,)).rowcount
            db.execute("COMMIT")
        finally:
            db.close()
        if not changed:
            raise self._unknown(name)
        return self.entry(name)

    def _rows(self, query: str, args: tuple = ()) -> list[tuple]:
        db = self._connect()
        try:
            return db.execute(query, args).fetchall()
        finally:
            db.close()

    _ENTRY = "SELECT name, added, commit_sha, judge, accepted, n, source, version FROM runs"

    @staticmethod
    def _entry(row) -> RunEntry:
        return RunEntry(row[0], row[1], row[2], row[3], bool(row[4]), int(row[5]), row[6], row[7])

    def entries(self) -> list[RunEntry]:
        """Every run, in the order added."""
        return [self._entry(row) for row in self._rows(f"{self._ENTRY} ORDER BY id")]

    def _clash(self, name: str) -> InputError:
        return InputError(f"a run named {name!r} is in {self.path} already; give another name or replace it "
                          "(replace=True, --replace)", field="name")

    def _unknown(self, name) -> InputError:
        names = [e.name for e in self.entries()]
        shown = ", ".join(repr(n) for n in names[-10:]) or "none yet"
        return InputError(f"no run named {name!r:.200} in {self.path}; the latest: {shown}", field="name")

    def latest(self, accepted: bool = False) -> RunEntry | None:
        """The run added last (with ``accepted``: the last accepted one); None when there is none."""
        rows = self._rows(f"{self._ENTRY}{' WHERE accepted = 1' if accepted else ''} ORDER BY id DESC LIMIT 1")
        return self._entry(rows[0]) if rows else None

    def entry(self, name: str) -> RunEntry:
        """The run ``name``, or "latest" / "accepted": the run added last / the last accepted one."""
        if name in KEYWORDS:
            found = self.latest(accepted=name == "accepted")
            if found is None:
                raise InputError(f"{self.path} holds no {'accepted ' if name == 'accepted' else ''}run yet",
                                 field="name")
            return found
        rows = self._rows(f"{self._ENTRY} WHERE name = ?", (name,))
        if not rows:
            raise self._unknown(name)
        return self._entry(rows[0])

    def get(self, name: str = "latest") -> list[dict]:
        """The records of the run ``name`` (or "latest" / "accepted"), for ``rw.evaluate`` or a DatasetExplorer."""
        name = self.entry(name).name
        return _unpack(self._rows("SELECT records FROM runs WHERE name = ?", (name,))[0][0])

    def runs(self) -> pd.DataFrame:
        """One row per run, in the order added: name, time (added, UTC), commit, judge (None where not
        given), accepted, n."""
        entries = self.entries()
        column = lambda field, dtype=object: pd.Series([getattr(e, field) for e in entries], dtype=dtype)  # noqa: E731
        return pd.DataFrame({"name": column("name"), "time": pd.to_datetime(column("time", str), utc=True),
                             "commit": column("commit"), "judge": column("judge"),
                             "accepted": column("accepted", bool), "n": column("n", "int64")})

    def metrics(self) -> pd.DataFrame:
        """One row per run and metric (long), in the order added: name, metric, mean, lo, hi, defined,
        undefined, not_computable (mean, lo and hi NaN when no sample defines the metric)."""
        rows = self._rows("SELECT r.name, m.metric, m.mean, m.lo, m.hi, m.defined, m.undefined, m.not_computable "
                          "FROM metrics m JOIN runs r ON r.id = m.run_id ORDER BY r.id, m.rowid")
        frame = pd.DataFrame(rows, columns=METRIC_COLUMNS)
        frame[["mean", "lo", "hi"]] = frame[["mean", "lo", "hi"]].astype(float)
        return frame

    @property
    def frame(self) -> pd.DataFrame:
        """Runs x metrics, read from the file at each access: indexed by run name in the order
        added, the columns of :meth:`runs` then, per metric, ``<metric>``, ``<metric>_lo`` and
        ``<metric>_hi`` (the mean and its interval; NaN where the run lacks the metric)."""
        runs = self.runs().set_index("name")
        long = self.metrics()
        metrics = list(dict.fromkeys(long["metric"]))
        wide = long.pivot(index="name", columns="metric", values=["mean", "lo", "hi"])
        columns = {}
        for m in metrics:
            for stat, suffix in (("mean", ""), ("lo", "_lo"), ("hi", "_hi")):
                columns[f"{m}{suffix}"] = wide[(stat, m)] if len(wide) else pd.Series(dtype=float)
        return runs.join(pd.DataFrame(columns, index=wide.index)) if columns else runs
