"""Failure notes: an analyst's free-text note on a sample or one of its claims, with tags that
name failure modes (error analysis's open and axial coding), as data.

One :class:`Note` is the note in force on one sample (``claim`` None) or one response claim
(``claim``: its 0-based index; ``claim_text`` the claim's text when written: ``rw.evaluate(...,
notes=)`` warns when a claim's text is no longer the one noted, as after claims extracted again). ``tags`` name failure modes (each a non-blank line of at most :data:`MAX_TAG`
characters, kept in order, duplicates dropped). A notes file is JSONL, one note per line, keys as
in :class:`Note` (``claim`` and ``claim_text`` only for a claim's note), ``time`` ISO 8601 UTC; a
later line for the same (query_id, claim) wins. A sample with any note in force is *read*; a note
with no text and no tags says "read, nothing to note". Renaming, merging and splitting tags
append each changed note again (:class:`NoteLog`): nothing is rewritten, every version stays in
``history``. The file has the reviews log's guarantees (:mod:`ragwidgets.jsonl_log`): a line
acknowledged is never lost, a torn line is skipped with an InputWarning, a later append never
glues onto it.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from numbers import Integral

from .errors import InputError
from .jsonl_log import AppendLog, read_records
from .jsonl_log import read_noting as jsonl_read_noting
from .reviews import now

FIELDS = ("query_id", "claim", "note", "tags", "author", "time", "claim_text")
CLAIM_FIELDS = ("claim", "claim_text")  # only in a claim's note
MAX_TAG = 80
MAX_NOTE = 10_000
_SPACE = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def clean_tag(tag, field: str = "tags") -> str:
    """A tag as kept: inner whitespace runs as one space, ends stripped; an InputError unless it is a
    string of 1 to MAX_TAG characters with no control character."""
    if not isinstance(tag, str):
        raise InputError(f"a tag is a string, not {tag!r:.80}", field=field)
    if _CONTROL.search(tag.replace("\t", " ").replace("\n", " ")) is not None:
        raise InputError(f"a tag has no control characters, not {tag!r:.80}", field=field)
    out = _SPACE.sub(" ", tag).strip()
    if not out or len(out) > MAX_TAG:
        raise InputError(f"a tag is 1 to {MAX_TAG} characters, not {tag!r:.80}", field=field)
    return out


def clean_tags(tags, field: str = "tags") -> tuple[str, ...]:
    """Tags as kept (:func:`clean_tag` each), in order, duplicates dropped; a list or tuple of strings."""
    if isinstance(tags, str) or not isinstance(tags, (list, tuple)):
        raise InputError(f"must be a list of strings, not {tags!r:.80}", field=field)
    return tuple(dict.fromkeys(clean_tag(t, field) for t in tags))


@dataclass(frozen=True)
class Note:
    """One note (one JSONL line); see the module docstring. A bad field is an InputError naming it."""

    query_id: str
    note: str = ""
    tags: tuple[str, ...] = ()
    claim: int | None = None
    author: str = ""
    time: str = ""
    claim_text: str | None = None

    def __post_init__(self):
        fix = lambda name, value: object.__setattr__(self, name, value)  # noqa: E731 (frozen)
        if isinstance(self.query_id, Integral) and not isinstance(self.query_id, bool):
            fix("query_id", str(self.query_id))
        if not isinstance(self.query_id, str):
            raise InputError(f"must be a string, not {self.query_id!r:.80}", field="query_id")
        if self.claim is not None:
            if not isinstance(self.claim, Integral) or isinstance(self.claim, bool) or self.claim < 0:
                raise InputError(f"must be a whole number >= 0 (the response claim's 0-based index) or absent, "
                                 f"not {self.claim!r:.80}", field="claim")
            fix("claim", int(self.claim))
        elif self.claim_text is not None:
            raise InputError("a sample's note has no claim: claim_text must be absent", field="claim_text")
        for name in ("note", "author", "time"):
            if not isinstance(getattr(self, name), str):
                raise InputError(f"must be a string, not {getattr(self, name)!r:.80}", field=name)
        if self.claim_text is not None and not isinstance(self.claim_text, str):
            raise InputError(f"must be a string, not {self.claim_text!r:.80}", field="claim_text")
        if len(self.note) > MAX_NOTE:
            raise InputError(f"a note is at most {MAX_NOTE:,} characters, not {len(self.note):,}", field="note")
        fix("tags", clean_tags(self.tags))
        if self.time:
            try:
                datetime.fromisoformat(self.time.replace("Z", "+00:00"))
            except ValueError:
                raise InputError(f"must be an ISO 8601 time such as 2026-01-31T12:00:00Z, not {self.time!r:.80}",
                                 field="time") from None

    @property
    def key(self) -> tuple[str, int | None]:
        """What a later note replaces: (query_id, claim)."""
        return (self.query_id, self.claim)

    @property
    def empty(self) -> bool:
        """No text and no tags: "read, nothing to note"."""
        return not self.note.strip() and not self.tags

    def to_json(self) -> dict:
        """The note as one JSON object (``claim`` and ``claim_text`` only for a claim's note)."""
        out = {name: getattr(self, name) for name in FIELDS}
        out["tags"] = list(self.tags)
        if self.claim is None:
            del out["claim"], out["claim_text"]
        elif self.claim_text is None:
            del out["claim_text"]
        return out

    @classmethod
    def from_json(cls, d, where: str = "") -> "Note":
        """The note of one JSON object; an InputError naming ``where`` (e.g. ``notes.jsonl line 3``)
        and the field when a key is missing, unknown or bad."""
        if not isinstance(d, Mapping):
            raise InputError(f"a note is a JSON object, not {type(d).__name__}", sample=where or None)
        unknown = sorted(set(d) - set(FIELDS), key=str)
        if unknown:
            raise InputError(f"unknown key; a note has {', '.join(FIELDS)}", sample=where or None,
                             field=str(unknown[0]))
        if d.get("query_id") is None:
            raise InputError("missing", sample=where or None, field="query_id")
        given = {k: v for k, v in d.items() if v is not None or k in CLAIM_FIELDS}
        try:
            return cls(**given)
        except InputError as err:
            raise InputError(err.detail, sample=where or None, field=err.field) from None


class Notes:
    """Notes, immutable; per key (:attr:`Note.key`) the latest note is in force.

    ``history`` holds every note written, in order; ``latest`` the one in force per key; iterating
    gives the notes in force in the order their keys were first seen."""

    def __init__(self, items: Iterable[Note] = ()):
        self.history: tuple[Note, ...] = tuple(items)
        self.latest: dict[tuple, Note] = {}
        for n in self.history:
            if not isinstance(n, Note):
                raise TypeError(f"Notes holds Note objects, not {type(n).__name__} (see Notes.from_records)")
            self.latest[n.key] = n
        self._by_sample: dict[str, dict[int | None, Note]] = {}
        for n in self.latest.values():
            self._by_sample.setdefault(n.query_id, {})[n.claim] = n

    @classmethod
    def read(cls, path) -> "Notes":
        """The notes of a JSONL file (see :func:`ragwidgets.jsonl_log.read_records`: a damaged line
        skipped with an InputWarning; a line that is not a note, a missing file or a folder an
        InputError naming it)."""
        return cls(read_records(path, Note.from_json, "note"))

    @classmethod
    def from_records(cls, records: Iterable) -> "Notes":
        """Notes from Note objects or dicts (JSON objects, DataFrame rows: NaN counts as absent)."""
        items = []
        for i, r in enumerate(records):
            if not isinstance(r, Note):
                if isinstance(r, Mapping):
                    r = {k: (None if isinstance(v, float) and v != v else v) for k, v in r.items()}
                    if r.get("claim") is not None and isinstance(r["claim"], float) and r["claim"].is_integer():
                        r["claim"] = int(r["claim"])  # a DataFrame's claim column with gaps is float
                    if r.get("tags") is not None and not isinstance(r["tags"], (list, tuple, str)):
                        r["tags"] = list(r["tags"])  # an array from Parquet
                r = Note.from_json(r, f"note {i}")
            items.append(r)
        return cls(items)

    def __len__(self) -> int:
        return len(self.latest)

    def __iter__(self):
        return iter(self.latest.values())

    def __add__(self, other) -> "Notes":
        """These notes, then ``other``'s: on the same key ``other``'s wins."""
        return Notes(self.history + as_notes(other).history)

    def __repr__(self) -> str:
        return f"Notes({len(self)} notes on {len(self._by_sample)} samples, {len(self.tags)} tags)"

    def for_sample(self, query_id: str) -> dict[int | None, Note]:
        """One sample's notes in force by claim (None: the sample's own); empty when it has none."""
        return dict(self._by_sample.get(query_id, {}))

    @property
    def query_ids(self) -> list[str]:
        """The samples read (any note in force), in the order first seen."""
        return list(self._by_sample)

    @property
    def tags(self) -> Counter:
        """Per tag, how many samples carry it (on the sample's note or any of its claims')."""
        return Counter(tag for tags in self.sample_tags().values() for tag in tags)

    def sample_tags(self) -> dict[str, tuple[str, ...]]:
        """Per sample read, its tags (:meth:`tags_of`)."""
        return {qid: self.tags_of(qid) for qid in self._by_sample}

    def tags_of(self, query_id: str) -> tuple[str, ...]:
        """Sample ``query_id``'s tags: its own note's, then its claims' in order, duplicates dropped
        (none when it was not read)."""
        notes = self._by_sample.get(query_id, {})
        return tuple(dict.fromkeys(t for claim in sorted(notes, key=lambda c: -1 if c is None else c)
                                   for t in notes[claim].tags))

    def with_tag(self, tag: str) -> list[str]:
        """The samples read that carry ``tag``, in the order first seen."""
        return [qid for qid, tags in self.sample_tags().items() if tag in tags]

    def untagged(self) -> list[Note]:
        """The notes in force with text and no tag (what a grouping proposal groups)."""
        return [n for n in self if n.note.strip() and not n.tags]

    def retagged(self, mapping: Mapping[str, str | None], keys=None, *, time: str | None = None) -> list[Note]:
        """The new versions of the notes in force that ``mapping`` changes (each tag named there
        replaced by its value; None drops it), only those of ``keys`` when given (a split); each
        stamped ``time`` (default: now). Pure: append them to change the file."""
        mapping = {clean_tag(old, "old tag"): (None if new is None else clean_tag(new, "new tag"))
                   for old, new in mapping.items()}
        wanted = None if keys is None else {tuple(k) if isinstance(k, list) else k for k in keys}
        out, stamp = [], time or now()
        for n in self:
            if (wanted is not None and n.key not in wanted) or not any(t in mapping for t in n.tags):
                continue
            tags = tuple(dict.fromkeys(t2 for t in n.tags for t2 in ([mapping[t]] if t in mapping else [t])
                                       if t2 is not None))
            out.append(replace(n, tags=tags, time=stamp))
        return out

    def tagged(self, keys, tag: str, *, time: str | None = None) -> list[Note]:
        """The new versions of the notes in force at ``keys`` with ``tag`` added (accepting a
        proposed grouping); a key with no note is an InputError."""
        tag, out, stamp = clean_tag(tag, "tag"), [], time or now()
        for k in keys:
            k = tuple(k) if isinstance(k, list) else k
            if k not in self.latest:
                raise InputError(f"no note on {k!r:.80}", field="keys")
            n = self.latest[k]
            if tag not in n.tags:
                out.append(replace(n, tags=(*n.tags, tag), time=stamp))
        return out

    def to_frame(self):
        """One row per note in force, one column per field (``claim`` and ``claim_text`` None for a
        sample's note; ``tags`` a list)."""
        import pandas as pd
        rows = [{name: (list(n.tags) if name == "tags" else getattr(n, name)) for name in FIELDS} for n in self]
        return pd.DataFrame(rows, columns=list(FIELDS))


class NoteLog(AppendLog):
    """An append-only notes file (:class:`~ragwidgets.jsonl_log.AppendLog`): every method that
    changes notes writes their new versions as lines, durably, before it returns them. Opening
    reads what is there; ``notes`` is everything read and appended since (after a rename, merge,
    split or tag: the whole file again, since those are computed from the file under its lock)."""

    what = "note"

    def __init__(self, path):
        super().__init__(path, Note.from_json)
        self._notes = Notes.read(self.path) if os.path.exists(self.path) else Notes()

    @property
    def notes(self) -> Notes:
        return self._notes

    def append(self, note: Note | Mapping) -> Note:
        """Write one note (a Note or its JSON object) as a line; returns the Note."""
        return self.extend([note])[0]

    def extend(self, notes: Iterable[Note | Mapping]) -> list[Note]:
        """Write notes as lines in one locked write; returns them as Notes."""
        items = [n if isinstance(n, Note) else Note.from_json(n, "note") for n in notes]
        if items:
            self.write_lines([n.to_json() for n in items])
            self._notes = Notes(self._notes.history + tuple(items))
        return items

    def changed(self, change) -> list[Note]:
        """Write the new versions ``change(notes)`` gives of the notes in force IN THE FILE now (read
        under the lock: another writer's lines since this log was opened included); these notes
        become the file's."""
        made: list[Note] = []

        def compute(records):
            made[:] = change(Notes(records))
            return [n.to_json() for n in made]

        self.write_computed(compute)
        self._notes = Notes.read(self.path)
        return made

    def rename(self, old: str, new: str) -> list[Note]:
        """Tag ``old`` becomes ``new`` on every note (a merge when ``new`` exists); the notes written."""
        return self.changed(lambda notes: notes.retagged({old: new}))

    def merge(self, olds: Iterable[str], new: str) -> list[Note]:
        """Every tag of ``olds`` becomes ``new``; the notes written."""
        olds = list(olds)
        return self.changed(lambda notes: notes.retagged({old: new for old in olds}))

    def split(self, tag: str, new: str, keys) -> list[Note]:
        """On the notes at ``keys`` (query_id, claim), tag ``tag`` becomes ``new``; the notes written."""
        keys = list(keys)
        return self.changed(lambda notes: notes.retagged({tag: new}, keys))

    def tag(self, keys, tag: str) -> list[Note]:
        """Add ``tag`` to the notes at ``keys`` (an accepted grouping); the notes written."""
        keys = list(keys)
        return self.changed(lambda notes: notes.tagged(keys, tag))


def read_noting(path) -> tuple[Notes, list[str]]:
    """The notes of a file and the warnings that reading it gave, for a command line to print."""
    return jsonl_read_noting(lambda: Notes.read(path))


def _read_table(path, suffix: str) -> Notes:
    """The notes of an exported table (``ragwidgets.engine.claims.write_notes``): Parquet, or CSV
    with its tags joined by "; " and its formula guard (a leading ' before = + - @, a tab or a
    carriage return) taken off again."""
    import pandas as pd
    name = os.fspath(path)
    if not os.path.isfile(name):
        raise InputError(f"{name}: no such notes file")
    if suffix == "parquet":
        return Notes.from_records(pd.read_parquet(name).to_dict("records"))
    frame = pd.read_csv(name, dtype=str, keep_default_na=False)
    frame = frame.rename(columns=_unguard).map(_unguard)
    records = []
    for r in frame.to_dict("records"):
        r["tags"] = [t for t in r.get("tags", "").split("; ") if t]
        r["claim"] = int(r["claim"]) if r.get("claim", "").strip().isdigit() else None
        r["claim_text"] = r.get("claim_text") if r["claim"] is not None and r.get("claim_text") else None
        records.append(r)
    return Notes.from_records(records)


def _unguard(cell: str) -> str:
    """A CSV cell as written before its formula guard (see :func:`_read_table`)."""
    return cell[1:] if cell[:1] == "'" and cell[1:2] in ("=", "+", "-", "@", "\t", "\r") else cell


def as_notes(obj) -> Notes:
    """Notes from a path (a JSONL notes file; a .csv or .parquet table ``write_notes`` exported),
    Notes, a NoteLog, a DataFrame, or an iterable of Note objects or dicts."""
    if isinstance(obj, Notes):
        return obj
    if isinstance(obj, NoteLog):
        return obj.notes
    if isinstance(obj, (str, os.PathLike)):
        suffix = os.fspath(obj).lower().rsplit(".", 1)[-1]
        return _read_table(obj, suffix) if suffix in ("csv", "parquet") else Notes.read(obj)
    if isinstance(obj, Note):
        return Notes([obj])
    if hasattr(obj, "to_dict") and hasattr(obj, "columns"):  # a DataFrame
        return Notes.from_records(obj.to_dict("records"))
    if isinstance(obj, Iterable) and not isinstance(obj, (bytes, Mapping, str)):
        return Notes.from_records(obj)
    raise TypeError(f"notes are a path, Notes, a NoteLog, a DataFrame or Note objects / dicts, "
                    f"not {type(obj).__name__}")
