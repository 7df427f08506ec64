"""The fast path for RAGChecker's plain results format: JSON bytes straight into label arrays.

``msgspec`` decodes and type-checks a file in chunks of samples, in C, labels as shared strings;
one Python pass then checks each chunk's shapes and turns its labels into int8 codes, and the
chunk's records are dropped. What is kept is columnar: the label codes and item counts as numpy,
the texts the run table and its search read (query, gt_answer, response) as Arrow string
columns, and where each sample's JSON lies (a JSONL file's :class:`Lines`, read again from the
file; a JSON file's results as views of its bytes), so that a Sample
(:class:`~ragwidgets.model.Sample`) is built when one is asked for by decoding that one sample
again: never one Python object per claim or passage for the whole run. A JSONL file is read from
disk a block at a time, a large one in parts read at once by this process and worker processes
(:func:`read_jsonl_file`).

This path takes a file only when the precise validator in :mod:`ragwidgets.loaders` would
accept it, giving identical Samples; anything else (another label spelling, claim objects,
citation extensions, other keys or their spellings, an empty passage text the validator warns of,
a wrong shape, a duplicate id, bad JSON, a JSONL line that is not one JSON value) makes
:func:`read_flat` return None, and the validator reads the file instead, with its messages.
"""

from __future__ import annotations

import ctypes
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain
from typing import Annotated, Literal, Optional, Union

import msgspec
import numpy as np
import pyarrow as pa

from .errors import InputError
from .model import LABEL_CODES, LABEL_SPELLINGS, UNJUDGED, Claim, Passage, Sample

LABEL_VECTORS = ("answer2response", "response2answer")  # over response claims, over gt claims
LABEL_GRIDS = ("retrieved2response", "retrieved2answer")

LabelText = Optional[Literal[LABEL_SPELLINGS]]  # the exact spellings only, decoded as shared strings
Labels = Optional[list[LabelText]]
Grid = Optional[list[list[LabelText]]]
class PlainClaim(msgspec.Struct, array_like=True, forbid_unknown_fields=True, gc=False):
    """A claim triple, exactly ``[subject, predicate, object]`` (a struct the garbage collector does
    not track, unlike a tuple: a run holds millions of them)."""

    subject: str
    predicate: str
    object: str


Triples = Optional[list[PlainClaim]]
_CODE_PLUS_ONE = {**{spelling: code + 1 for spelling, code in LABEL_CODES.items()}, None: UNJUDGED + 1}


class PlainPassage(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    doc_id: str
    text: str


class LoadedPassage(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A passage as a load takes it: an empty text is not this path's (the validator says it)."""

    doc_id: str
    text: Annotated[str, msgspec.Meta(min_length=1)]


class PlainRecord(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """One sample in RAGChecker's own format, nothing else (any other key, an empty passage text: not this path)."""

    query_id: Union[str, int, msgspec.UnsetType] = msgspec.UNSET  # null: not this path
    query: Optional[str] = None
    gt_answer: Optional[str] = None
    response: Optional[str] = None
    retrieved_context: Optional[list[LoadedPassage]] = None
    response_claims: Triples = None
    gt_answer_claims: Triples = None
    answer2response: Labels = None
    response2answer: Labels = None
    retrieved2response: Grid = None
    retrieved2answer: Grid = None
    metrics: Optional[dict[str, Optional[float]]] = None  # ragchecker's own per-sample scores: not read


class TextRecord(msgspec.Struct, gc=False):
    """What is read again of a plain record once loaded: its texts, passages and claims (the labels
    are skipped: their codes are held; the record was checked whole when the file was loaded)."""

    query_id: Union[str, int, msgspec.UnsetType] = msgspec.UNSET
    query: Optional[str] = None
    gt_answer: Optional[str] = None
    response: Optional[str] = None
    retrieved_context: Optional[list[PlainPassage]] = None
    response_claims: Triples = None
    gt_answer_claims: Triples = None


class ClaimRecord(msgspec.Struct, gc=False):
    """What the per-claim table reads again of a plain record: its claims' words and its doc_ids."""

    retrieved_context: Optional[list[PlainPassage]] = None
    response_claims: Optional[list[list[str]]] = None
    gt_answer_claims: Optional[list[list[str]]] = None


class PlainFile(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """``{"results": [...]}``, with ragchecker's aggregate ``metrics`` (decoded, so checked as
    JSON and UTF-8 as the validator checks them, and dropped); any other key: not this path. Each
    result is kept as its JSON text (a view of the file's bytes), decoded a chunk at a time."""

    results: list[msgspec.Raw]
    metrics: Optional[dict[str, dict[str, Optional[float]]]] = None


class PassageRecord(msgspec.Struct, gc=False):
    """What a what-if rule reads again of a plain record: its passages."""

    retrieved_context: Optional[list[PlainPassage]] = None


_DECODERS = {"object": msgspec.json.Decoder(PlainFile), "list": msgspec.json.Decoder(list[msgspec.Raw]),
             "record": msgspec.json.Decoder(PlainRecord), "text": msgspec.json.Decoder(TextRecord),
             "claims": msgspec.json.Decoder(ClaimRecord), "passages": msgspec.json.Decoder(PassageRecord)}
CHUNK = 8192  # samples decoded at a time: their records are dropped once their labels are codes
TEXTS = ("query", "gt_answer", "response")  # the texts kept as columns


BOM = b"\xef\xbb\xbf"


def _codes(labels: list) -> np.ndarray:
    """int8 label codes of a list of label strings and None (one dict lookup each, at C speed)."""
    return np.frombuffer(bytes(map(_CODE_PLUS_ONE.__getitem__, labels)), dtype=np.int8) - np.int8(1)


def _stamp(path: str) -> tuple[int, int]:
    """(size, modification time in ns) of ``path``: what says the file is the one that was loaded."""
    st = os.stat(path)
    return st.st_size, st.st_mtime_ns


@dataclass(eq=False)
class Lines(Sequence):
    """Each sample's line of a JSONL file (``starts[i]`` to ``ends[i]``, byte offsets): read again
    from ``path`` when given, else from ``data`` (a gzipped file, bytes or JSON text: a stream has no
    offsets). A file changed since it was loaded is refused (its offsets no longer hold)."""

    starts: np.ndarray
    ends: np.ndarray
    path: str | None = None
    stamp: tuple[int, int] | None = None
    data: bytes | None = None

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, i: int) -> bytes:
        start, end = int(self.starts[i]), int(self.ends[i])
        if self.data is not None:
            return self.data[start:end]
        with self._open() as f:
            f.seek(start)
            return f.read(end - start)

    def __iter__(self) -> Iterator[bytes]:
        return self.take(None)

    def take(self, rows: Sequence[int] | None) -> Iterator[bytes]:
        """The lines at ``rows`` (None: all), in that order, the file opened once."""
        starts, ends = (self.starts, self.ends) if rows is None else (self.starts[rows], self.ends[rows])
        if self.data is not None:
            yield from (self.data[start:end] for start, end in zip(starts.tolist(), ends.tolist()))
            return
        with self._open() as f:
            for start, end in zip(starts.tolist(), ends.tolist()):
                f.seek(start)
                yield f.read(end - start)

    def _open(self):
        try:
            if _stamp(self.path) == self.stamp:
                return open(self.path, "rb")
        except OSError:
            pass
        raise InputError(f"{self.path} has changed (or gone) since it was loaded; load it again to see its samples")


class Records(Sequence):
    """The records of a source as TextRecords, each decoded when asked for (iterating decodes them in order)."""

    def __init__(self, source: Sequence):
        self.source = source

    def __len__(self) -> int:
        return len(self.source)

    def __getitem__(self, i: int) -> TextRecord:
        return _DECODERS["text"].decode(self.source[i])

    def __iter__(self) -> Iterator[TextRecord]:
        return map(_DECODERS["text"].decode, self.source)


@dataclass(eq=False)
class FlatRecords:
    """Plain records as columns: labels as flat int8 codes, texts as Arrow strings, the rest in ``source``.

    ``source``: each sample's JSON text (:class:`Lines` of a JSONL file, or a JSON file's results
    as views of its bytes). ``n_resp``/``n_gt``/``n_psg``: items per sample.
    ``answer2response``/``response2answer``: one code per claim (0 where the sample has no
    vector). ``retrieved2response``/``retrieved2answer``: the matrices of the samples that have
    one, concatenated row by row. ``has``: per label matrix, which samples have it (given, or
    complete by shape alone). ``texts``: query, gt_answer and response per sample ("" if absent).
    """

    source: Sequence
    query_ids: list[str]
    n_resp: np.ndarray
    n_gt: np.ndarray
    n_psg: np.ndarray
    labels: dict[str, np.ndarray]
    has: dict[str, np.ndarray]
    texts: dict[str, pa.ChunkedArray]  # a chunk per CHUNK samples, as decoded (not copied into one)
    n_unnamed: int
    first_unnamed: int | None

    @property
    def samples(self) -> "LazySamples":
        """The Samples, each built when asked for (a new view each time: caching it here would make
        a reference cycle that keeps the whole run alive until the collector runs)."""
        return LazySamples(self)

    @property
    def records(self) -> Records:
        """Each record's texts, passages and claims, decoded from ``source`` when asked for."""
        return Records(self.source)

    def claim_words(self) -> tuple[dict[str, pa.Array], pa.Array]:
        """Every claim's three words, in order, per side ("response_claims", "gt_answer_claims"; a
        claim's words are 3k, 3k+1, 3k+2), and every passage's doc_id: one pass over ``source``,
        the words gathered by C-level iteration, not one Python step per claim."""
        words = {"response_claims": [], "gt_answer_claims": []}
        add_resp, add_gt = words["response_claims"].extend, words["gt_answer_claims"].extend
        doc_ids = []
        add_doc = doc_ids.extend
        joined = chain.from_iterable
        for r in map(_DECODERS["claims"].decode, self.source):
            if r.response_claims:
                add_resp(joined(r.response_claims))
            if r.gt_answer_claims:
                add_gt(joined(r.gt_answer_claims))
            if r.retrieved_context:
                add_doc(p.doc_id for p in r.retrieved_context)
        return ({side: pa.array(w, type=pa.large_string()) for side, w in words.items()},
                pa.array(doc_ids, type=pa.large_string()))

    @cached_property
    def grid_start(self) -> dict[str, np.ndarray]:
        """Per label matrix: offset of each sample's entries in ``labels[name]``."""
        rows = {"retrieved2response": self.n_resp, "retrieved2answer": self.n_gt}
        return {name: np.r_[0, np.cumsum(self.has[name] * rows[name] * self.n_psg)] for name in LABEL_GRIDS}

    @cached_property
    def claim_start(self) -> dict[str, np.ndarray]:
        return {"answer2response": np.r_[0, np.cumsum(self.n_resp)], "response2answer": np.r_[0, np.cumsum(self.n_gt)]}


class LazySamples(Sequence):
    """The Samples of a FlatRecords, each built when asked for from its one decoded record and the
    label arrays (equal to the precise parser's)."""

    def __init__(self, flat: FlatRecords):
        self.flat = flat

    def __len__(self) -> int:
        return len(self.flat.query_ids)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return self._sample(range(len(self))[i])

    def texts(self, field: str) -> list[str]:
        """Every record's ``field`` ("query", "gt_answer" or "response"; missing: "")."""
        return self.flat.texts[field].to_pylist()

    def text_column(self, field: str) -> pa.ChunkedArray:
        """Every record's ``field`` as an Arrow string column (no Python string per sample)."""
        return self.flat.texts[field]

    def passage_columns(self, rows: Sequence[int] | None = None) -> tuple[pa.Array, pa.Array]:
        """The doc_id and text of every passage of the samples at ``rows`` (None: all), in sample
        then rank order, as Arrow strings: each record's passages decoded again, nothing else."""
        source = self.flat.source
        raws = (source.take(rows) if isinstance(source, Lines)
                else iter(source) if rows is None else (source[i] for i in rows))
        doc_ids, texts = [], []
        try:
            for r in map(_DECODERS["passages"].decode, raws):
                if r.retrieved_context:
                    doc_ids.extend(p.doc_id for p in r.retrieved_context)
                    texts.extend(p.text for p in r.retrieved_context)
        except (msgspec.DecodeError, msgspec.ValidationError):
            doc_ids = None
        n_psg = self.flat.n_psg if rows is None else self.flat.n_psg[rows]
        if doc_ids is None or len(doc_ids) != int(n_psg.sum()):  # rewritten keeping its size and time
            raise InputError("the file's passages read back differently: it has changed since it was loaded; "
                             "load it again")
        return pa.array(doc_ids, type=pa.large_string()), pa.array(texts, type=pa.large_string())

    def _sample(self, i: int) -> Sample:
        f = self.flat
        try:
            r = f.records[i]
            qid = i if r.query_id is msgspec.UNSET else r.query_id
            shape = (len(r.retrieved_context or ()), len(r.response_claims or ()), len(r.gt_answer_claims or ()))
        except (msgspec.DecodeError, msgspec.ValidationError):
            r = qid = shape = None
        if r is None or str(qid) != f.query_ids[i] or shape != (f.n_psg[i], f.n_resp[i], f.n_gt[i]):
            # the file was rewritten in a way its size and time did not show (a copy keeping the time)
            raise InputError(f"sample {i} (query_id {f.query_ids[i]!r}) reads back as another record: the file has "
                             "changed since it was loaded; load it again to see its samples")
        labels = {}
        for name in LABEL_VECTORS:
            start = f.claim_start[name]
            labels[name] = f.labels[name][start[i]:start[i + 1]].copy() if f.has[name][i] else None
        for name, rows in (("retrieved2response", f.n_resp[i]), ("retrieved2answer", f.n_gt[i])):
            start = f.grid_start[name]
            labels[name] = (f.labels[name][start[i]:start[i + 1]].reshape(rows, f.n_psg[i]).copy()
                            if f.has[name][i] else None)
        return Sample(
            query_id=f.query_ids[i], query=r.query or "", gt_answer=r.gt_answer or "", response=r.response or "",
            passages=tuple(Passage(p.doc_id, p.text) for p in r.retrieved_context or ()),
            response_claims=_claims(r.response_claims), gt_claims=_claims(r.gt_answer_claims),
            has_gt_claims=r.gt_answer_claims is not None, **labels,
        )


def _claims(triples) -> tuple[Claim, ...]:
    return tuple(Claim(f"{t.subject} {t.predicate} {t.object}", (t.subject, t.predicate, t.object))
                 for t in triples or ())


_SPACE = re.compile(rb"[ \t\n\r\x0b\x0c]*")  # what bytes.lstrip() strips, found without copying the file


PARTS: int | None = None  # parts a JSONL file is read in (None: one per usable core, at most MAX_PARTS)
MAX_PARTS = 4
PART_MIN = 50 * 2**20  # a smaller file is read by this process alone (a worker takes ~0.5 s to start)
BLOCK = 32 * 2**20  # bytes of a file read at a time


def read_flat(data: bytes, jsonl: bool, path: str | None = None) -> FlatRecords | None:
    """The plain records of a file's bytes as columns, or None when they are not all plain.

    JSONL is read as the validator reads it: one JSON value on each ``\\n``-separated line, blank
    lines skipped. ``path``: the (not gzipped) file ``data`` was read from; its lines are then read
    again from it on demand rather than the file's bytes kept (a drill-down reads one line).
    """
    skip = len(BOM) if data[:len(BOM)] == BOM else 0
    try:
        if jsonl:
            stamp = _stamp(path) if path is not None else None
            keep = path is None or stamp[0] != len(data)  # not the bytes read: keep them
            reader = _LineReader(CHUNK)
            part = reader.part() if reader.feed(data, skip, len(data)) else None
            if part is None:
                return None
            source = Lines(part.starts, part.ends, path=None if keep else str(path), stamp=None if keep else stamp,
                           data=data if keep else None)
        else:
            view = memoryview(data)[skip:]
            first = _SPACE.match(data, skip).end()
            source = (_DECODERS["list"].decode(view) if data[first:first + 1] == b"["
                      else _DECODERS["object"].decode(view).results)
            decode, built = _DECODERS["record"].decode, _Columns()
            for k in range(0, len(source), CHUNK):
                if not built.add([decode(raw) for raw in source[k:k + CHUNK]]):
                    return None
            part = built.part(None, None)
    except (msgspec.DecodeError, RecursionError):
        return None
    return _finish(part, source)


def read_jsonl_file(path: str, *, parts: int | None = None) -> FlatRecords | None:
    """:func:`read_flat` of a (not gzipped) JSONL file, read from the file a block at a time (never
    all its bytes at once), its lines split at line ends into ``parts`` parts of about equal size:
    the first read by this process, each other one by a worker process at the same time, merged in
    order (a part whose worker fails is read here). ``parts``: default :data:`PARTS`, else one per
    usable core up to MAX_PARTS for a file of at least PART_MIN bytes, else 1; any number of parts
    gives the same FlatRecords. None also when the file changed while it was read."""
    path = str(path)
    stamp = _stamp(path)
    with open(path, "rb") as f:
        bounds = _bounds(f, stamp[0], _part_count(stamp[0], parts))
    workers = [_start_worker(path, start, stop) for start, stop in bounds[1:]]
    try:
        read = [_read_range(path, *bounds[0], CHUNK, BLOCK)]
        for worker, (start, stop) in zip(workers, bounds[1:]):
            if read[0] is None:
                return None
            done, part = _finish_worker(worker)
            read.append(part if done else _read_range(path, start, stop, CHUNK, BLOCK))
    except (msgspec.DecodeError, RecursionError):
        return None
    finally:
        for worker in workers:
            if worker is not None and worker.poll() is None:
                worker.kill()
                worker.wait()
    if any(part is None for part in read) or _stamp(path) != stamp:
        return None
    part = _concat(read)
    del read
    return _finish(part, Lines(part.starts, part.ends, path=path, stamp=stamp))


def _finish(part: "_Part", source: Sequence) -> FlatRecords | None:
    flat = _merge(part, source)
    del part  # its per-chunk parts, concatenated by _merge
    _trim()
    return flat


def _trim() -> None:
    """Hand the memory the dropped chunks' records freed back to the system (glibc's
    ``malloc_trim``; where there is none, nothing)."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _part_count(size: int, parts: int | None) -> int:
    parts = PARTS if parts is None else parts
    if parts is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
        parts = min(cores, MAX_PARTS) if size >= PART_MIN else 1
    return max(1, parts)


def _bounds(f, size: int, parts: int) -> list[tuple[int, int]]:
    """(start, stop) of up to ``parts`` byte ranges of whole lines covering the file ``f`` (of
    ``size`` bytes; after its byte order mark), each but the last stopping at the first ``\\n`` from an
    equal share of the bytes (fewer ranges where lines are long)."""
    skip = len(BOM) if f.read(len(BOM)) == BOM else 0
    bounds, start = [], skip
    for j in range(1, parts):
        f.seek(max(start, skip + (size - skip) * j // parts))
        line = f.readline()
        if not line.endswith(b"\n"):
            break
        cut = f.tell() - 1
        bounds.append((start, cut))
        start = cut + 1
    bounds.append((start, size))
    return bounds


@dataclass(eq=False)
class _Part:
    """The columns of consecutive records (see :class:`FlatRecords`); ``query_ids`` "" where a
    record has none (``unnamed``: their positions in the part, named by :func:`_merge`)."""

    n: int
    starts: np.ndarray | None  # JSONL: each record's line, as byte offsets in the file
    ends: np.ndarray | None
    query_ids: pa.ChunkedArray
    unnamed: np.ndarray
    counts: np.ndarray  # (n_resp, n_gt, n_psg) rows
    has: dict[str, np.ndarray]
    labels: dict[str, np.ndarray]
    texts: dict[str, pa.ChunkedArray]


# the worker's stdout is kept for its result alone (anything printed goes to its stderr)
_WORKER = ("import os, pickle, sys; out = os.fdopen(os.dup(1), 'wb'); os.dup2(2, 1); "
           "task = pickle.load(sys.stdin.buffer); sys.path.insert(0, task['root']); "
           "from ragwidgets._fastload import _work; _work(task, out)")


def _start_worker(path: str, start: int, stop: int):
    """A process reading the lines of ``path`` from byte ``start`` to ``stop`` (:func:`_work`), or
    None where none can be started."""
    import pickle
    import subprocess
    import sys

    task = {"root": os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "path": path,
            "start": start, "stop": stop, "chunk": CHUNK, "block": BLOCK}
    try:
        worker = subprocess.Popen([sys.executable, "-c", _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    except OSError:
        return None
    try:
        worker.stdin.write(pickle.dumps(task))
        worker.stdin.close()
    except OSError:  # it exited at once
        worker.kill()
        worker.wait()
        return None
    return worker


def _finish_worker(worker) -> tuple[bool, "_Part | None"]:
    """(True, its _Part or None) when ``worker`` read its lines; (False, None) when it did not (it
    could not start, or failed)."""
    import pickle

    if worker is None:
        return False, None
    out = worker.stdout.read()
    if worker.wait() != 0 or not out:
        return False, None
    return True, pickle.loads(out)


def _work(task: dict, out) -> None:
    """A worker process's work: the _Part (None: not plain) of its lines of the file, pickled to ``out``."""
    import gc
    import pickle

    gc.disable()  # as the caller's load_samples does: many small objects, none cyclic
    try:
        part = _read_range(task["path"], task["start"], task["stop"], task["chunk"], task["block"])
    except (msgspec.DecodeError, RecursionError):
        part = None
    pickle.dump(part, out, protocol=5)
    out.flush()


def _read_range(path: str, start: int, stop: int, chunk: int, block_size: int) -> "_Part | None":
    """The _Part of the lines of the file ``path`` from byte ``start`` to ``stop``, read a block at a
    time (a line over two blocks is read whole with the next); None at the first one that is not plain."""
    reader = _LineReader(chunk)
    with open(path, "rb") as f:
        f.seek(start)
        at, tail = start, b""  # at: where tail begins in the file
        while True:
            more = f.read(max(0, min(block_size, stop - at - len(tail))))
            block = tail + more if tail else more
            last = not more or at + len(block) >= stop
            cut = len(block) if last else block.rfind(b"\n")
            if cut >= 0:
                if not reader.feed(block, 0, cut, at):
                    return None
                if last:
                    break
                tail, at = block[cut + 1:], at + cut + 1
            else:
                tail = block
    return reader.part()


class _LineReader:
    """The records of lines fed a block at a time (:meth:`feed`), kept a chunk at a time as columns."""

    def __init__(self, chunk: int):
        self.chunk, self.built = chunk, _Columns()
        self.records, self.starts, self.ends = [], [], []

    def feed(self, data: bytes, start: int, stop: int, at: int = 0) -> bool:
        """Read the lines of ``data[start:stop]`` (``data[0]`` is byte ``at`` of the file), each decoded
        on its own (``decode_lines`` would also take a value over two lines, or two values on one), a
        blank one skipped; False at a chunk with a record that is not plain; a line that is not JSON
        raises DecodeError."""
        decode, view, records = _DECODERS["record"].decode, memoryview(data), self.records
        while start <= stop:
            end = data.find(b"\n", start, stop)
            end = stop if end < 0 else end
            try:
                records.append(decode(view[start:end]))
                self.starts.append(start + at)
                self.ends.append(end + at)
            except msgspec.DecodeError:
                if data[start:end].strip():
                    raise
            start = end + 1
            if len(records) == self.chunk:
                if not self.built.add(records):
                    return False
                records = self.records = []
        return True

    def part(self) -> "_Part | None":
        """The _Part of every line fed (None: the last chunk has a record that is not plain)."""
        if not self.built.add(self.records):
            return None
        self.records = []
        return self.built.part(np.array(self.starts, dtype=np.int64), np.array(self.ends, dtype=np.int64))


class _Columns:
    """The columns of records added a chunk at a time (:meth:`add`), then :meth:`part`."""

    def __init__(self):
        self.n = 0
        self.query_ids: list[pa.Array] = []  # per chunk (Python strings made per chunk would pin its freed memory)
        self.unnamed: list[np.ndarray] = []
        self.counts: list[np.ndarray] = []  # per chunk: (n_resp, n_gt, n_psg) rows
        self.has = {name: [] for name in (*LABEL_VECTORS, *LABEL_GRIDS)}
        self.labels = {name: [] for name in self.has}
        self.texts = {name: [] for name in TEXTS}

    def add(self, records: list[PlainRecord]) -> bool:
        """Check every record's shapes and keep its labels as codes; False at the first record that
        the precise validator refuses (a wrong shape, a duplicate doc_id, nothing to score). Absent
        label arrays that are complete by shape alone count as given (see
        :func:`ragwidgets.loaders.vacuous_labels`)."""
        query_ids, unnamed, n_resp, n_gt, n_psg = [], [], [], [], []
        has = {name: [] for name in self.has}
        has_a2r, has_r2a, has_r2r, has_ret2a = (has[name].append for name in has)
        flat = {name: [] for name in has}
        a2r, r2a, r2r, ret2a = (flat[name].extend for name in flat)
        joined = chain.from_iterable
        for i, r in enumerate(records, self.n):  # the two sides written out: this loop runs once per sample
            psg, resp, gt = r.retrieved_context, r.response_claims, r.gt_answer_claims
            if psg is None:
                if resp is None and gt is None:
                    return False  # nothing to score, or labels without their claims
                k = 0
            else:
                k = len(psg)
                if k > 1 and len({p.doc_id for p in psg}) != k:
                    return False
            nr = -1 if resp is None else len(resp)  # -1: not given, so no label array's length matches
            ng = -1 if gt is None else len(gt)
            no_psg = k == 0 and psg is not None
            labels = r.answer2response
            if labels is None:
                has_a2r(nr == 0)
            elif len(labels) != nr:
                return False
            else:
                has_a2r(True)
                a2r(labels)
            labels = r.response2answer
            if labels is None:
                has_r2a(ng == 0)
            elif len(labels) != ng:
                return False
            else:
                has_r2a(True)
                r2a(labels)
            rows = r.retrieved2response
            if rows is None:
                has_r2r(nr == 0 or (nr > 0 and no_psg))
            elif len(rows) != nr or (nr and set(map(len, rows)) != {k}):
                return False
            else:
                has_r2r(True)
                r2r(joined(rows))
            rows = r.retrieved2answer
            if rows is None:
                has_ret2a(ng == 0 or (ng > 0 and no_psg))
            elif len(rows) != ng or (ng and set(map(len, rows)) != {k}):
                return False
            else:
                has_ret2a(True)
                ret2a(joined(rows))
            qid = r.query_id
            if qid is msgspec.UNSET:
                unnamed.append(i)
                qid = ""  # named by its position in the whole file, by _merge
            query_ids.append(str(qid))
            n_resp.append(nr)
            n_gt.append(ng)
            n_psg.append(k)
        self.n += len(records)
        counts = np.array([n_resp, n_gt, n_psg], dtype=np.int64).reshape(3, len(records))
        counts[:2] = np.maximum(counts[:2], 0)
        self.counts.append(counts)
        for name, values in has.items():
            present = np.array(values, dtype=bool)
            codes = _codes(flat[name])
            if name in LABEL_VECTORS:  # one code per claim: 0 where the sample has no vector, as Batch stores them
                n = counts[LABEL_VECTORS.index(name)]
                per_claim = np.zeros(int(n.sum()), dtype=np.int8)
                per_claim[np.repeat(present, n)] = codes
                codes = per_claim
            self.has[name].append(present)
            self.labels[name].append(codes)
        for name in TEXTS:
            self.texts[name].append(pa.array([getattr(r, name) or "" for r in records], type=pa.large_string()))
        self.query_ids.append(pa.array(query_ids, type=pa.large_string()))
        self.unnamed.append(np.array(unnamed, dtype=np.int64))
        return True

    def part(self, starts: np.ndarray | None, ends: np.ndarray | None) -> _Part:
        """The records added, as one _Part (``starts``/``ends``: their lines, for a JSONL file)."""
        has, labels = ({name: np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)
                        for name, parts in kind.items()} for kind, dtype in ((self.has, bool), (self.labels, np.int8)))
        return _Part(
            n=self.n, starts=starts, ends=ends, query_ids=pa.chunked_array(self.query_ids, type=pa.large_string()),
            unnamed=np.concatenate(self.unnamed) if self.unnamed else np.zeros(0, dtype=np.int64),
            counts=np.concatenate(self.counts, axis=1) if self.counts else np.zeros((3, 0), dtype=np.int64),
            has=has, labels=labels,
            texts={name: pa.chunked_array(parts, type=pa.large_string()) for name, parts in self.texts.items()})


def _concat(parts: list[_Part]) -> _Part:
    """Consecutive parts as one (their texts' chunks kept, not copied into one)."""
    if len(parts) == 1:
        return parts[0]
    offsets = np.cumsum([0] + [p.n for p in parts])
    return _Part(
        n=int(offsets[-1]), starts=np.concatenate([p.starts for p in parts]), ends=np.concatenate([p.ends for p in parts]),
        query_ids=pa.chunked_array([c for p in parts for c in p.query_ids.chunks], type=pa.large_string()),
        unnamed=np.concatenate([p.unnamed + offset for p, offset in zip(parts, offsets)]),
        counts=np.concatenate([p.counts for p in parts], axis=1),
        has={name: np.concatenate([p.has[name] for p in parts]) for name in parts[0].has},
        labels={name: np.concatenate([p.labels[name] for p in parts]) for name in parts[0].labels},
        texts={name: pa.chunked_array([c for p in parts for c in p.texts[name].chunks], type=pa.large_string())
               for name in TEXTS})


def _merge(part: _Part, source: Sequence) -> FlatRecords | None:
    """The FlatRecords of ``part`` (None when two records share a query_id; a record without one is
    named by its position)."""
    query_ids = part.query_ids.to_pylist()
    unnamed = part.unnamed.tolist()
    for i in unnamed:
        query_ids[i] = str(i)
    if len(set(query_ids)) != part.n:
        return None
    return FlatRecords(
        source=source, query_ids=query_ids, n_resp=part.counts[0], n_gt=part.counts[1], n_psg=part.counts[2],
        labels=part.labels, has=part.has, texts=part.texts, n_unnamed=len(unnamed),
        first_unnamed=unnamed[0] if unnamed else None)
