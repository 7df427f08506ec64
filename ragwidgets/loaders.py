"""Read RAGChecker-format results (JSON ``{"results": [...]}`` or JSONL, plain or gzipped) into
validated Samples.

Every problem is an :class:`InputError` naming the file line or the sample and the field. With
``on_error="report"`` a bad sample (or a JSONL line that is not JSON) is set aside with its error
and the others are kept. Input that is accepted but probably wrong (unknown keys, missing
query_ids) gives an :class:`InputWarning` naming the keys and suggesting the close match.
"""

from __future__ import annotations

import difflib
import gc
import gzip
import json
import warnings
import zlib
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ._pages import opted_in
from .errors import InputError, InputWarning
from .sources import FIELD_SPELLINGS, is_table, is_table_path, read_run, tool_shape
from .model import (ENTAILED, IMPORTANCE_LABELS, LABEL_CODES, LABEL_MATRICES, LABEL_SPELLINGS, UNJUDGED, Claim,
                    Passage, Sample, fact_labels, label_code, required_flag)

ON_ERROR = ("raise", "report")  # stop at the first bad sample, or set bad samples aside
_EXACT = {**LABEL_CODES, None: UNJUDGED}  # the fast path: the exact spellings
_SCORED_FIELDS = ("response_claims", "gt_answer_claims", "retrieved_context", "corpus", "reference_facts",
                  *LABEL_MATRICES)  # a record with none of these has nothing any metric could count
KNOWN_FIELDS = {  # every record field the loaders read or pass over knowingly (others are warned about)
    "query_id", "query", "gt_answer", "response", "response_claim_labels", "gt_answer_claim_labels",
    "metrics",  # RAGChecker's own per-sample results
    "unjudged",  # the judge fill's notes on the labels it left unjudged
    "label_repeats",  # each label field as each repeat of the judge gave it (ragwidgets.judges.repeats)
    *_SCORED_FIELDS,
}
PASSAGE_SPELLINGS = {  # a passage's field -> its keys, RAGChecker's first (LangChain, LlamaIndex, Haystack, ... after)
    "doc_id": ("doc_id", "id", "document_id"), "text": ("text", "content", "page_content")}
PASSAGE_FLAGS = ("facts", "relevant", "outdated")  # a passage's other fields (the citation extensions)


@dataclass
class LoadResult:
    """Samples that parsed, the errors of those that did not (``on_error="report"``), and
    warnings about input that was accepted but looks wrong.

    ``samples`` is a sequence of Samples; files of RAGChecker's plain format are decoded
    straight into label arrays (``flat``) and their Samples built only when one is asked for.
    """

    samples: Sequence[Sample]
    errors: list[InputError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    flat: Any = None  # ragwidgets._fastload.FlatRecords when the fast path read the file
    unnamed: int = 0  # samples with no query_id, named by their position
    first_unnamed: int | None = None
    external: Any = None  # a table source's numeric columns by query_id (ragwidgets.sources), not scored
    external_tool: str = ""  # the tool that named them (SourceRun.tool)


def read_records(source: str | Path | bytes | dict | list) -> list:
    """The sample records of a results file, JSON text, a parsed results object, or a list.

    Accepts ``{"results": [...]}`` (JSON), one sample per line (JSONL), or a bare list; files may
    be gzipped and start with a UTF-8 byte order mark. Raises :class:`InputError` on the first
    problem.
    """
    if isinstance(source, (bytes, str, Path)):
        name, data = read_source(source)
        return _parse_text(_decode_text(data, name), name, "raise")[0]
    return _unwrap(source)


def read_source(source: str | Path | bytes) -> tuple[str, bytes]:
    """(a name for messages, the raw bytes, gunzipped) of a path, JSON text or bytes; a file that
    cannot be read is an InputError naming it. The one reader of sources (the Dask explorer's too)."""
    if isinstance(source, bytes):
        return "input", _gunzip(source, "input")
    if isinstance(source, str) and source.lstrip()[:1] in ("{", "["):
        return "JSON text", source.encode("utf-8")
    path = Path(source)
    try:
        if path.is_dir():
            raise InputError(f"{path} is a directory; give a results file (.json, .jsonl, or either .gz)")
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"no such file: {path}") from None
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror or err}") from None
    return str(path), _gunzip(data, str(path))


def _gunzip(data: bytes, name: str) -> bytes:
    if data[:2] != b"\x1f\x8b":
        return data
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as err:
        raise InputError(f"{name} is a damaged or truncated gzip file: {err}") from None


def _decode_text(data: bytes, name: str) -> str:
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise InputError(f"{name} is UTF-16 text; save it as UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(f"{name} is not UTF-8 text (byte {err.start} is {data[err.start:err.start + 1]!r}); "
                         "save it as UTF-8") from None


def is_jsonl(name: str) -> bool:
    """Whether a file name says JSON Lines (``.jsonl``, ``.jsonl.gz``, any case)."""
    return name.lower().removesuffix(".gz").endswith(".jsonl")


def _parse_text(text: str, name: str, on_error: str) -> tuple[list, list[InputError]]:
    if is_jsonl(name):
        return _read_jsonl(text, name, on_error)
    try:
        return _unwrap(_json(text)), []
    except json.JSONDecodeError as err:
        first = next((line for line in text.split("\n") if line.strip()), "")
        if _is_json_value(first) and first.strip() != text.strip():
            return _read_jsonl(text, name, on_error)  # JSONL content under another name
        raise InputError(f"{name} is not valid JSON: {_where(err, text)}") from None


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        raise InputError("the JSON is nested too deeply to be a results file") from None


def _is_json_value(line: str) -> bool:
    try:
        _json(line)
    except (json.JSONDecodeError, InputError):
        return False
    return True


def _where(err: json.JSONDecodeError, text: str, what: str = "file") -> str:
    """Where a JSON parse failed in a file (or one JSONL line); says where the text stops when it
    simply stops (a truncated file)."""
    truncated = not text[err.pos:].strip() or err.msg.startswith("Unterminated string")
    end = text.rstrip()
    line, column = (end.count("\n") + 1, len(end) - end.rfind("\n")) if truncated else (err.lineno, err.colno)
    where = f"line {line}, column {column}" if what == "file" else f"column {column}"
    if truncated:
        return f"it stops at {where} inside an unfinished value (the {what} looks truncated)"
    return f"{err.msg} ({where})"


def _read_jsonl(text: str, name: str, on_error: str) -> tuple[list, list[InputError]]:
    """One record per ``\\n``-separated line (a raw U+2028 or U+0085 inside a string is text)."""
    records, errors = [], []
    lines = [(n, line) for n, line in enumerate(text.split("\n"), 1) if line.strip()]
    for n, line in lines:
        try:
            record = _json(line)
        except (json.JSONDecodeError, InputError) as err:
            why = _where(err, line, "line") if isinstance(err, json.JSONDecodeError) else err.detail
            error = InputError(f"not valid JSON (JSONL expects one sample per line): {why}",
                               sample=f"{name} line {n}")
            if on_error == "raise":
                raise error from None
            errors.append(error)
            continue
        if isinstance(record, dict) and "results" in record:
            if len(lines) == 1:
                return _unwrap(record), []  # a whole results object on one line
            error = InputError("holds a {'results': [...]} object; JSONL expects one sample per line",
                               sample=f"{name} line {n}")
            if on_error == "raise":
                raise error
            errors.append(error)
            continue
        records.append(record)
    return records, errors


def _unwrap(source: Any) -> list:
    if isinstance(source, dict):
        if "results" not in source:
            hint = " (this looks like one sample: pass it in a list)" if KNOWN_FIELDS & source.keys() else ""
            raise InputError(f"expected {{'results': [sample, ...]}}; the key is missing{hint}", field="results")
        source = source["results"]
        if not isinstance(source, list):
            raise InputError(f"must be a list of samples, got {type(source).__name__}", field="results")
    if not isinstance(source, list):
        raise InputError(f"expected a list of samples or {{'results': [...]}}, got {type(source).__name__}")
    return source


def check_on_error(on_error: str) -> None:
    if on_error not in ON_ERROR:
        raise ValueError(f"on_error must be {' or '.join(map(repr, ON_ERROR))}, not {on_error!r}")


def load_samples(source, *, on_error: str = "raise") -> LoadResult:
    """Parse every sample of ``source`` (see :func:`read_records`).

    ``on_error="raise"`` stops at the first bad sample; ``"report"`` keeps the good ones and
    lists the errors. Duplicate ``query_id`` values and records with nothing to score are
    errors. Tables (Parquet, CSV, DataFrames, ragas, Phoenix spans) are read by their shape first:
    :func:`ragwidgets.sources.read_run`, their numeric columns kept in ``external``. Files in RAGChecker's plain format take a fast path (a JSONL file :mod:`ragwidgets._arrowload`'s, what it leaves :mod:`ragwidgets._fastload`'s);
    anything it does not accept is read by the precise validator below, with its messages.
    """
    check_on_error(on_error)
    with gc_paused():
        flat = _plain_table(source)
        if flat is not None:
            return LoadResult(samples=flat.samples, flat=flat)
        run = read_run(source) if is_table(source) else None  # Parquet, CSV, a DataFrame, ragas, Phoenix
        if run is None and isinstance(source, (bytes, str, Path)):
            from . import _arrowload as arrowload
            from . import _fastload as fastload
            jsonl_file = _jsonl_file(source)  # gzipped or not: read a block at a time, never all its bytes at once
            flat = arrowload.read_jsonl(jsonl_file) if jsonl_file else None  # Arrow's JSON reader first
            data = None
            if flat is None and jsonl_file and _plain_file(source, jsonl_file):  # msgspec for what Arrow leaves
                flat = fastload.read_jsonl_file(jsonl_file)  # not plain (or changed while read): the validator's
            elif flat is None:
                name, data = read_source(source)
                flat = fastload.read_flat(data, is_jsonl(name), path=_plain_file(source, name))
            if flat is not None:
                result = LoadResult(samples=flat.samples, flat=flat, unnamed=flat.n_unnamed,
                                    first_unnamed=flat.first_unnamed)
                result.warnings = _query_id_warnings(flat.n_unnamed, flat.first_unnamed)
                _emit(result.warnings)
                return result
            if data is None:
                name, data = read_source(source)
            records, errors = _parse_text(_decode_text(data, name), name, on_error)
        else:
            records, errors = (_unwrap(source) if run is None else run.records), []
        if run is None and tool_shape(records):  # another tool's rows as dicts or JSON lines: read as its table is
            run = read_run(records)
            records = run.records
        result = _load(records, on_error)
        if run is not None:
            result.external, result.external_tool = run.external, run.tool
    result.errors[:0] = errors
    _emit(result.warnings)
    return result


def _plain_table(source):
    """The fast path's read (FlatRecords) of a Parquet file or an Arrow table whose columns are all
    of RAGChecker's plain format, ``query_id`` among them: its list columns straight into label
    arrays (:mod:`ragwidgets._arrowload`), or, for a column type that path does not read, its rows
    as JSON lines made by Arrow (:mod:`ragwidgets.arrow_json`). None for anything else, read by
    :func:`read_run` instead."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from . import _arrowload as arrowload
    from . import _fastload as fastload
    from .arrow_json import jsonl_bytes

    try:
        if isinstance(source, pa.Table):
            names, read = source.schema.names, lambda: source
        elif is_table_path(source) and Path(source).suffix.lower() == ".parquet" and Path(source).is_file():
            names, read = pq.read_schema(source).names, lambda: pq.read_table(source)
        else:
            return None
        if "query_id" not in names or not set(names) <= set(fastload.PlainRecord.__struct_fields__):
            return None
        table = read()
        try:
            return arrowload.flat_from_arrow(table)
        except arrowload.Unsupported:  # a column type read through its JSON lines instead
            return fastload.read_flat(jsonl_bytes(table), True)
    except (OSError, TypeError, pa.ArrowException):  # not readable, or a column JSON cannot hold: the slow path says why
        return None


def _plain_file(source, name: str) -> str | None:
    """The path of a file source that is not gzipped (its samples can be read again at their byte
    offsets), else None."""
    if not isinstance(source, (str, Path)) or name == "JSON text":
        return None
    try:
        with open(name, "rb") as f:
            return None if f.read(2) == b"\x1f\x8b" else name
    except OSError:
        return None


def _jsonl_file(source) -> str | None:
    """The path of a JSONL file source (by its name; gzipped or not) that is a file, else None."""
    if not isinstance(source, (str, Path)) or (isinstance(source, str) and source.lstrip()[:1] in ("{", "[")):
        return None
    name = str(Path(source))
    try:
        return name if is_jsonl(name) and Path(name).is_file() else None
    except OSError:  # a name too long, a folder it may not read: read_source says which
        return None


def _emit(messages: list[str]) -> None:
    for message in messages:
        warnings.warn(message, InputWarning, stacklevel=3)


@contextmanager
def gc_paused():
    """Pause the cyclic garbage collector while building many small objects (none are cyclic), inside
    :func:`ragwidgets.large_runs` only: library code flips no process-wide switch unasked."""
    if not opted_in():
        yield
        return
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _load(records: list, on_error: str) -> LoadResult:
    result = LoadResult(samples=[])
    notes = Notes()
    seen: dict[str, int] = {}
    unknown: Counter = Counter()
    first_unknown: dict[str, int] = {}
    unnamed: list[int] = []
    for index, record in enumerate(records):
        try:
            if isinstance(record, dict):
                for key in record.keys() - KNOWN_FIELDS:
                    unknown[key] += 1
                    first_unknown.setdefault(key, index)
                if "query_id" not in record:
                    unnamed.append(index)
                if not any(record.get(k) is not None for k in _SCORED_FIELDS):
                    raise InputError(_nothing_to_score(record), sample=_label(index, record.get("query_id")))
            sample = parse_sample(record, index, notes=notes)
            if sample.query_id in seen:
                other = seen[sample.query_id]
                named = [i for i in (other, index) if i in unnamed]
                note = (f"; sample {', '.join(map(str, named))} has no query_id and is named by its position"
                        if named else "")
                raise InputError(f"duplicate query_id, also used by sample {other}{note}",
                                 sample=_label(index, sample.query_id), field="query_id")
            seen[sample.query_id] = index
            result.samples.append(sample)
        except InputError as err:
            if on_error == "raise":
                raise
            result.errors.append(err)
    result.warnings = [_unknown_warning(key, count, first_unknown[key]) for key, count in unknown.items()]
    result.warnings += notes.messages()
    result.unnamed, result.first_unnamed = len(unnamed), unnamed[0] if unnamed else None
    result.warnings += _query_id_warnings(result.unnamed, result.first_unnamed)
    return result


def _suggest(key: str) -> str:
    if key in FIELD_SPELLINGS:
        return f"; RAGChecker's field is '{FIELD_SPELLINGS[key]}'"
    close = difflib.get_close_matches(key, sorted(KNOWN_FIELDS), n=1, cutoff=0.75)
    return f"; did you mean '{close[0]}'?" if close else ""


def _unknown_warning(key: str, count: int, first: int) -> str:
    return f"unknown field {key!r} in {count} sample(s) (first: sample {first}) is ignored{_suggest(key)}"


def _nothing_to_score(record: dict) -> str:
    keys = ", ".join(map(repr, list(record)[:8])) or "none (an empty object)"
    hints = [f"{k!r} -> {FIELD_SPELLINGS[k]!r}" for k in record if k in FIELD_SPELLINGS]
    hint = f" (another tool's format? {', '.join(hints)})" if hints else ""
    return (f"nothing to score: the record has none of {', '.join(_SCORED_FIELDS)}; "
            f"its keys: {keys}{hint}")


def _query_id_warnings(n_unnamed: int, first: int | None) -> list[str]:
    if not n_unnamed:
        return []
    return [f"{n_unnamed} sample(s) have no query_id (first: sample {first}); each is named by its "
            "position in the file, counting from 0"]


def _label(index: int, query_id: Any) -> str:
    return f"sample {index} (query_id {query_id!r})" if query_id is not None else f"sample {index}"


_new_tuple = tuple.__new__  # builds a NamedTuple from all its fields at C speed (its __new__ is Python)


def _string_triples(items: list) -> tuple[Claim, ...] | None:
    """Claims from a list of [s, p, o] string triples (RAGChecker's own form), else None."""
    out = []
    for c in items:
        if type(c) is not list or len(c) != 3:
            return None
        s, p, o = c
        if type(s) is not str or type(p) is not str or type(o) is not str:
            return None
        out.append(_new_tuple(Claim, (f"{s} {p} {o}", (s, p, o), None, None, None)))  # Claim(text, triple)
    return tuple(out)


def _plain_passages(items: list) -> tuple[Passage, ...] | None:
    """Passages from RAGChecker's own {doc_id: str, text: str} objects, else None (an empty text too:
    the parser notes it)."""
    out = []
    for item in items:
        if type(item) is not dict or len(item) != 2:
            return None
        doc_id, text = item.get("doc_id"), item.get("text")
        if type(doc_id) is not str or type(text) is not str or not text:
            return None
        out.append(_new_tuple(Passage, (doc_id, text, None, None, False)))  # Passage(doc_id, text)
    return tuple(out)


class Notes:
    """What the parser read leniently over the samples of one load, said once each: passage keys of
    another spelling, passage keys it ignores (a spelling beside the one read among them), passages
    with an empty text (each counted, and where first)."""

    def __init__(self):
        self.counts: Counter = Counter()
        self.first: dict[tuple, str] = {}

    def add(self, what: tuple, where: str) -> None:
        self.counts[what] += 1
        self.first.setdefault(what, where)

    def messages(self) -> list[str]:
        """The warnings' texts (none when nothing was noted)."""
        spelled = [(what, n) for what, n in self.counts.items() if what[0] == "spelled"]
        out = [f"passage keys of another spelling are read as RAGChecker's: "
               f"{', '.join(f'{old!r} -> {new!r} ({n} passage(s))' for (_, old, new), n in spelled)} "
               f"(first: {self.first[spelled[0][0]]})"] if spelled else []
        out += [f"unknown passage key {what[1]!r} in {n} passage(s) (first: {self.first[what]}) is ignored; a passage "
                f"reads {', '.join(PASSAGE_SPELLINGS)} and {', '.join(PASSAGE_FLAGS)}"
                for what, n in self.counts.items() if what[0] == "ignored"]
        out += [f"passage key {what[1]!r} beside {what[2]!r} in {n} passage(s) (first: {self.first[what]}) is ignored: "
                f"{_read_first(what[2])}" for what, n in self.counts.items() if what[0] == "beside"]
        empty = ("empty",)
        if self.counts[empty]:
            out.append(f"{self.counts[empty]} passage(s) have an empty text (first: {self.first[empty]}); "
                       "nothing in them can support a claim")
        return out


def _read_first(key: str) -> str:
    """Why ``key`` is read of two spellings of one passage field (see :func:`spelled_key`)."""
    field_name, spellings = next((name, keys) for name, keys in PASSAGE_SPELLINGS.items() if key in keys)
    if key == field_name:
        return f"RAGChecker's {key!r} is read"
    return f"{key!r} is read, the first of {field_name}'s spellings ({', '.join(map(repr, spellings))})"


def spelled_key(item: dict, field_name: str) -> tuple[str | None, list[str]]:
    """The key of passage ``item`` that gives ``field_name`` (:data:`PASSAGE_SPELLINGS`: RAGChecker's own,
    else the first other spelling given; a null value counts as absent, as a Parquet struct writes a key
    another row has), and the other spellings given beside it, which are ignored. (None, []) when none is."""
    given = [key for key in PASSAGE_SPELLINGS[field_name] if item.get(key) is not None]
    return (given[0], given[1:]) if given else (None, [])


class _Parser:
    """Parses one record; every error names the sample and the field; what it reads leniently goes
    to ``notes``."""

    def __init__(self, record: Any, index: int, notes: Notes | None = None):
        self.index = index
        self.notes = Notes() if notes is None else notes
        qid = record.get("query_id") if isinstance(record, dict) else None
        self.where = _label(index, qid)
        if not isinstance(record, dict):
            self.fail(None, f"a sample must be a JSON object, got {type(record).__name__}")
        self.record = record

    def fail(self, field_name: str | None, message: str):
        raise InputError(message, sample=self.where, field=field_name)

    def text(self, name: str) -> str:
        value = self.record.get(name, "")
        if value is None:
            return ""
        if not isinstance(value, str):
            self.fail(name, f"must be a string, got {type(value).__name__}")
        return value

    def string_list(self, value: Any, name: str) -> tuple[str, ...]:
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, (str, int)) for v in value):
            self.fail(name, f"must be a list of strings, got {value!r:.80}")
        return tuple(str(v) for v in value)

    def flag(self, value: Any, name: str) -> bool:
        if not isinstance(value, bool):
            self.fail(name, f"must be true or false, got {value!r:.40}")
        return value

    def passages(self, name: str) -> tuple[Passage, ...]:
        items = self.record.get(name)
        if items is None:
            return ()
        if not isinstance(items, list):
            self.fail(name, f"must be a list of {{doc_id, text}} objects, got {type(items).__name__}")
        plain = _plain_passages(items)
        if plain is not None:
            return plain
        out = []
        for k, item in enumerate(items):
            where = f"{name}[{k}]"
            if isinstance(item, str):
                item = {"text": item}
            if not isinstance(item, dict):
                self.fail(where, f"must be an object with doc_id and text, got {type(item).__name__}")
            original, item = item, self.respelled(item, where)
            doc_id = item.get("doc_id")
            if doc_id is None:
                doc_id = f"{'P' if name == 'retrieved_context' else 'C'}{k + 1}"
            elif not isinstance(doc_id, (str, int)):
                self.fail(f"{where}.doc_id", f"must be a string, got {doc_id!r:.40}")
            text = item.get("text")
            if text is None and item.get("facts") is None:
                self.fail(where, self.no_text(original))
            if text is not None and not isinstance(text, str):
                self.fail(f"{where}.text", f"must be a string, got {type(text).__name__}")
            if text == "":
                self.notes.add(("empty",), f"{self.where}, {where}")
            text = text or ""
            facts = item.get("facts")
            relevant = item.get("relevant")
            out.append(Passage(
                doc_id=str(doc_id), text=text,
                facts=None if facts is None else self.string_list(facts, f"{where}.facts"),
                relevant=None if relevant is None else self.flag(relevant, f"{where}.relevant"),
                outdated=self.flag(item.get("outdated", False), f"{where}.outdated"),
            ))
        return tuple(out)

    def respelled(self, item: dict, where: str) -> dict:
        """A passage object's fields under RAGChecker's keys (the key :func:`spelled_key` picks; the
        spellings given beside it are noted and ignored); another key is noted and ignored."""
        out: dict = {}
        for field_name in PASSAGE_SPELLINGS:
            key, beside = spelled_key(item, field_name)
            if key is not None:
                out[field_name] = item[key]
                if key != field_name:
                    self.notes.add(("spelled", key, field_name), f"{self.where}, {where}")
            for other in beside:
                self.notes.add(("beside", other, key), f"{self.where}, {where}")
        spelled = {key for spellings in PASSAGE_SPELLINGS.values() for key in spellings}
        for key, value in item.items():
            if key in PASSAGE_FLAGS:
                out[key] = value
            elif key not in spelled and value is not None:
                self.notes.add(("ignored", key), f"{self.where}, {where}")
        return out

    @staticmethod
    def no_text(item: dict) -> str:
        """Why a passage object has no text: its text key is null, or it has none (its keys listed)."""
        null = next((key for key in PASSAGE_SPELLINGS["text"] if key in item), None)
        if null is not None:
            return f"has no text: its {null!r} is null; give the text as a string ('' for an empty passage)"
        return (f"has no text: give it as 'text' (or {', '.join(map(repr, PASSAGE_SPELLINGS['text'][1:]))})"
                f"; its keys: {', '.join(map(repr, item))[:120] or 'none'}")

    def claims(self, name: str) -> tuple[tuple[Claim, ...], bool]:
        items = self.record.get(name)
        if items is None:
            return (), False
        if not isinstance(items, list):
            self.fail(name, f"must be a list of claims, got {type(items).__name__}")
        triples = _string_triples(items)
        if triples is not None:
            return triples, True
        return tuple(self.claim(item, f"{name}[{j}]") for j, item in enumerate(items)), True

    def claim(self, item: Any, where: str) -> Claim:
        if isinstance(item, str):
            return Claim(text=item)
        if isinstance(item, (list, tuple)):
            if len(item) != 3 or not all(isinstance(v, (str, int, float)) for v in item):
                self.fail(where, f"a claim triple must be [subject, predicate, object], got {item!r:.80}")
            triple = tuple(str(v) for v in item)
            return Claim(text=" ".join(triple), triple=triple)
        if not isinstance(item, dict):
            self.fail(where, f"a claim must be a string, a triple or an object, got {type(item).__name__}")
        triple = None
        if any(k in item for k in ("subject", "predicate", "object")):
            missing = [k for k in ("subject", "predicate", "object") if not isinstance(item.get(k), str)]
            if missing:
                self.fail(f"{where}.{missing[0]}", "a claim object with a triple needs string subject, predicate and object")
            triple = (item["subject"], item["predicate"], item["object"])
        text = item.get("text")
        if text is not None and not isinstance(text, str):
            self.fail(f"{where}.text", f"must be a string, got {type(text).__name__}")
        facts = item.get("facts")
        facts = None if facts is None else self.string_list(facts, f"{where}.facts")
        if text is None:
            text = " ".join(triple) if triple else ", ".join(facts or ())
        cites = item.get("cites")
        if isinstance(cites, str):
            cites = [cites]
        cites = None if cites is None else tuple(dict.fromkeys(self.string_list(cites, f"{where}.cites")))
        label = item.get("label")
        return Claim(text=text, triple=triple, facts=facts, cites=cites,
                     required=None if label is None else self.required_flag(label, f"{where}.label"))

    def required_flag(self, label: Any, where: str) -> bool:
        required = required_flag(label)
        if required is None:
            self.fail(where, f"must be {' or '.join(map(repr, IMPORTANCE_LABELS))} (any case), got {label!r:.40}")
        return required

    def apply_labels(self, claims: tuple[Claim, ...], name: str) -> tuple[Claim, ...]:
        labels = self.record.get(name)
        if labels is None:
            return claims
        if not isinstance(labels, list) or len(labels) != len(claims):
            n = len(labels) if isinstance(labels, list) else type(labels).__name__
            self.fail(name, f"must list one REQUIRED/OPTIONAL label per claim: {len(claims)} claims, got {n}")
        out = []
        for j, (claim, label) in enumerate(zip(claims, labels)):
            required = self.required_flag(label, f"{name}[{j}]")
            if claim.required is not None and claim.required != required:
                self.fail(f"{name}[{j}]", "disagrees with the claim's own 'label'")
            out.append(claim._replace(required=required))
        return tuple(out)

    def label_vector(self, name: str, length: int, claims_field: str) -> np.ndarray | None:
        value = self.record.get(name)
        if value is None:
            return None
        if not isinstance(value, list):
            self.fail(name, f"must be a list of labels, got {type(value).__name__}")
        if len(value) != length:
            self.fail(name, f"has {len(value)} labels but {claims_field} has {length} claims")
        return self.codes(value, (length,), lambda j: f"{name}[{j}]")

    def label_matrix(self, name: str, rows: int, cols: int, claims_field: str) -> np.ndarray | None:
        value = self.record.get(name)
        if value is None:
            return None
        if not isinstance(value, list):
            self.fail(name, f"must be a list of label rows, got {type(value).__name__}")
        if len(value) != rows:
            self.fail(name, f"has {len(value)} rows but {claims_field} has {rows} claims")
        for i, row in enumerate(value):
            if not isinstance(row, list) or len(row) != cols:
                n = len(row) if isinstance(row, list) else type(row).__name__
                self.fail(f"{name}[{i}]", f"must have one label per retrieved passage: {cols} passages, got {n}")
        flat = list(chain.from_iterable(value))
        return self.codes(flat, (rows, cols), lambda e: f"{name}[{e // cols}][{e % cols}]")

    def codes(self, flat: list, shape: tuple[int, ...], where) -> np.ndarray:
        """Label codes for a flat list of labels; RAGChecker's exact spellings take a fast path."""
        try:
            codes = list(map(_EXACT.get, flat))
        except TypeError:  # an unhashable label
            codes = [None]
        if None in codes:
            codes = [self.label(v, where(e)) for e, v in enumerate(flat)]
        return np.array(codes, dtype=np.int8).reshape(shape)

    def label(self, value: Any, where: str) -> int:
        code = label_code(value)
        if code is None:
            self.fail(where, f"unknown label {value!r:.40}; expected {', '.join(LABEL_SPELLINGS)}, "
                             "true/false, or null for unjudged")
        return code


def parse_sample(record: Any, index: int = 0, *, notes: Notes | None = None) -> Sample:
    """Validate one RAGChecker-format record (with the citation-family extensions). ``notes``: where
    what it reads leniently (passage keys of other spellings, an empty passage text) is counted, to
    be said once by the caller (:func:`load_samples` does)."""
    p = _Parser(record, index, notes)
    r = p.record
    qid = r.get("query_id", index)
    if not isinstance(qid, (str, int)):
        p.fail("query_id", f"must be a string, got {qid!r:.40}")
    passages = p.passages("retrieved_context")
    corpus = p.passages("corpus")
    seen_ids: set[str] = set()
    for name, group in (("retrieved_context", passages), ("corpus", corpus)):
        for k, passage in enumerate(group):
            if passage.doc_id in seen_ids:
                p.fail(f"{name}[{k}].doc_id", f"doc_id {passage.doc_id!r} appears twice")
            seen_ids.add(passage.doc_id)
    resp, has_resp = p.claims("response_claims")
    gt, has_gt = p.claims("gt_answer_claims")
    resp = p.apply_labels(resp, "response_claim_labels")
    gt = p.apply_labels(gt, "gt_answer_claim_labels")
    for j, claim in enumerate(resp):
        for doc_id in claim.cites or ():
            if doc_id not in seen_ids:
                p.fail(f"response_claims[{j}].cites",
                       f"cites {doc_id!r}, which is neither a retrieved passage nor in 'corpus'")
    reference = r.get("reference_facts")
    reference = None if reference is None else tuple(dict.fromkeys(p.string_list(reference, "reference_facts")))

    fields = dict(passages=passages, response_claims=resp, gt_claims=gt, has_gt_claims=has_gt,
                  reference_facts=reference)
    groups = (("response_claims", resp), ("gt_answer_claims", gt), ("retrieved_context", passages), ("corpus", corpus))
    with_facts = next((f"{name}[{k}].facts" for name, group in groups for k, x in enumerate(group)
                       if x.facts is not None), None)  # where fact IDs decide entailment, if anywhere
    uses_facts = with_facts is not None
    n_psg = len(passages)
    if uses_facts:
        labels = fact_labels(fields)
        _check_labels_agree_with_facts(p, labels, with_facts, len(resp), len(gt), n_psg)
    else:
        for name, claims_field, present in (("answer2response", "response_claims", has_resp),
                                            ("retrieved2response", "response_claims", has_resp),
                                            ("response2answer", "gt_answer_claims", has_gt),
                                            ("retrieved2answer", "gt_answer_claims", has_gt)):
            if r.get(name) is not None and not present:
                p.fail(name, f"is given but '{claims_field}' is missing, so its shape cannot be checked")
        labels = {
            "answer2response": p.label_vector("answer2response", len(resp), "response_claims"),
            "response2answer": p.label_vector("response2answer", len(gt), "gt_answer_claims"),
            "retrieved2response": p.label_matrix("retrieved2response", len(resp), n_psg, "response_claims"),
            "retrieved2answer": p.label_matrix("retrieved2answer", len(gt), n_psg, "gt_answer_claims"),
        }
        vacuous = vacuous_labels(len(resp) if has_resp else None, len(gt) if has_gt else None, n_psg,
                                 r.get("retrieved_context") is not None)
        labels = {name: vacuous.get(name) if value is None else value for name, value in labels.items()}
    return Sample(
        query_id=str(qid), query=p.text("query"), gt_answer=p.text("gt_answer"),
        response=p.text("response"), corpus=corpus,
        entailment="facts" if uses_facts else "labels", **fields, **labels,
    )


def _check_labels_agree_with_facts(p, implied: dict, with_facts: str, n_resp: int, n_gt: int, n_psg: int) -> None:
    """Label matrices given beside fact IDs (as a judge that reads the facts fills them) must say
    what the facts say: a judged label is entailed exactly where the facts entail. Unjudged labels
    leave the facts to decide; Contradiction and Neutral are both "not entailed" to the facts."""
    shapes = {"answer2response": (n_resp,), "response2answer": (n_gt,), "retrieved2response": (n_resp, n_psg),
              "retrieved2answer": (n_gt, n_psg)}
    for name in LABEL_MATRICES:
        if p.record.get(name) is None:
            continue
        shape = shapes[name]
        given = (p.label_vector(name, shape[0], "response_claims" if name == "answer2response" else "gt_answer_claims")
                 if len(shape) == 1 else
                 p.label_matrix(name, *shape, "response_claims" if name == "retrieved2response" else "gt_answer_claims"))
        facts = implied.get(name)
        judged = given != UNJUDGED
        conflict = judged if facts is None else judged & ((given == ENTAILED) != (np.asarray(facts) == ENTAILED))
        if conflict.any():
            cell = "".join(f"[{int(k)}]" for k in np.argwhere(conflict)[0])
            p.fail(f"{name}{cell}", f"disagrees with the fact IDs ({with_facts}), which decide entailment here: "
                                    "give the fact IDs or the label matrices, or labels that agree with them")


def vacuous_labels(n_resp: int | None, n_gt: int | None, n_psg: int, passages_given: bool) -> dict[str, np.ndarray]:
    """The label arrays that are complete without a single label, by their shape alone.

    A vector over 0 claims, or a claims x passages matrix with 0 claims or 0 passages, holds no
    label. It is known when its dimensions are: the claims field is given (None: not given),
    and for 0 passages with claims, ``retrieved_context`` is given (as ``[]``).
    """
    out = {}
    for vector, matrix, n in (("answer2response", "retrieved2response", n_resp),
                              ("response2answer", "retrieved2answer", n_gt)):
        if n == 0:
            out[vector] = np.zeros(0, dtype=np.int8)
        if n == 0 or (n is not None and n_psg == 0 and passages_given):
            out[matrix] = np.zeros((n, n_psg), dtype=np.int8)
    return out


def load_any(data: Any, *, on_error: str = "raise") -> LoadResult:
    """Load a Sample, a list of Samples or records, one record, a results object, a path, or JSON text."""
    if isinstance(data, Sample):
        return LoadResult(samples=[data])
    if isinstance(data, (list, tuple)) and data and all(isinstance(s, Sample) for s in data):
        return LoadResult(samples=list(data))
    if isinstance(data, Sequence) and not isinstance(data, (str, bytes, list, tuple)) and len(data) \
            and isinstance(data[0], Sample):
        return LoadResult(samples=data)  # a fast load's samples, built on demand
    if isinstance(data, dict) and "results" not in data and KNOWN_FIELDS & data.keys():
        data = [data]  # one record
    return load_samples(data, on_error=on_error)


def as_samples(data: Any) -> Sequence[Sample]:
    """Samples from anything :func:`load_any` reads."""
    return load_any(data).samples
