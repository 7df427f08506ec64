"""The fast path through Arrow: RAGChecker's plain columns straight into the fast path's label
arrays, no Python object per sample, for an Arrow table (a Parquet file) and for a JSONL file.

:func:`part_of` checks the shapes :class:`ragwidgets._fastload._Columns` checks, with numpy over
the list offsets (claims per sample, passages, each label array's length and each grid row's), and
turns labels into int8 codes through one lookup of the value column. :func:`flat_from_arrow` reads
a table, each sample kept readable on demand as its JSON line (:class:`ArrowRows`, made by Arrow):
None where the validator must read the table (a wrong shape, a duplicate doc_id or query_id,
another label spelling, nothing to score), :class:`Unsupported` for a column type this path does
not read (then the table's JSON lines go through ``_fastload.read_flat``). :func:`read_jsonl`
reads a JSONL file a block at a time with Arrow's JSON reader (C++, threaded) into typed columns,
each sample's line kept as its byte offsets; it takes only what msgspec's path
(:mod:`ragwidgets._fastload`) takes, giving the same FlatRecords, and leaves the rest to it.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor

import msgspec
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pj

from ._fastload import (_DECODERS, BOM, LABEL_GRIDS, LABEL_VECTORS, TEXTS, FlatRecords, Lines, TextRecord, _concat, _finish, _merge,
                        _Part, _stamp)
from .arrow_json import jsonl_bytes
from .model import LABEL_CODES, UNJUDGED

SPELLINGS = {kind: pa.array(list(LABEL_CODES), type=kind) for kind in (pa.string(), pa.large_string())}
CODES = np.array(list(LABEL_CODES.values()), dtype=np.int8)
CODES_OR_UNJUDGED = np.append(CODES, np.int8(UNJUDGED))  # indexed by a spelling's position, or len(CODES) for null
TEXT_FIELDS = tuple(TextRecord.__struct_fields__)  # what a Sample is built from, again, when asked for
BATCH = 8192  # rows turned into JSON lines at a time when the samples are read in order


class Unsupported(Exception):
    """A column type this path does not read."""


class ArrowRows(Sequence):
    """Each row of a table as its JSON line (bytes), made by Arrow when asked for."""

    def __init__(self, table: pa.Table):
        self.table = table.select([c for c in TEXT_FIELDS if c in table.column_names])

    def __len__(self) -> int:
        return self.table.num_rows

    def __getitem__(self, i: int) -> bytes:
        return jsonl_bytes(self.table.slice(range(len(self))[i], 1))[:-1]

    def __iter__(self) -> Iterator[bytes]:
        for start in range(0, len(self), BATCH):
            yield from jsonl_bytes(self.table.slice(start, BATCH)).split(b"\n")[:-1]


def _columns(table: pa.Table) -> dict[str, pa.Array]:
    """Each column as one array (dictionaries decoded), all-null (null type) ones left out."""
    out = {}
    for name in table.column_names:
        column = table[name].combine_chunks()
        if pa.types.is_dictionary(column.type):
            column = column.dictionary_decode()
        if not pa.types.is_null(column.type):
            out[name] = column
    return out


def _lists(column: pa.Array | None, n: int) -> tuple[np.ndarray, np.ndarray, pa.Array | None]:
    """(given, length, values) of a list column: which rows hold a list, each one's length (-1 where
    none), and their values in order (null rows skipped)."""
    if column is None:
        return np.zeros(n, dtype=bool), np.full(n, -1, dtype=np.int64), None
    if not (pa.types.is_list(column.type) or pa.types.is_large_list(column.type)):
        raise Unsupported(f"a {column.type} column")
    length = pc.fill_null(pc.list_value_length(column), -1).to_numpy(zero_copy_only=False).astype(np.int64)
    return length >= 0, length, column.flatten()


def _strings(values: pa.Array | None) -> bool:
    return values is not None and (pa.types.is_string(values.type) or pa.types.is_large_string(values.type))


def _codes(values: pa.Array) -> np.ndarray | None:
    """int8 codes of label strings (null: unjudged); None when one is not an exact spelling."""
    if pa.types.is_null(values.type):
        return np.full(len(values), UNJUDGED, dtype=np.int8)
    if not _strings(values):
        raise Unsupported(f"labels of type {values.type}")
    at = pc.index_in(values, value_set=SPELLINGS[values.type])
    if at.null_count != values.null_count:
        return None  # another spelling: the validator reads (and names) it
    at = pc.fill_null(at, len(CODES)).to_numpy(zero_copy_only=False)
    return CODES_OR_UNJUDGED[at]


def _claims(column: pa.Array | None, n: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(given, count) of a claims column of [subject, predicate, object] triples; None when a
    triple is not exactly three strings (then the validator reads it)."""
    given, count, triples = _lists(column, n)
    if triples is None or not len(triples):
        return given, count
    if pa.types.is_null(triples.type) or triples.null_count:
        return None
    _, parts, words = _lists(triples, len(triples))
    if (parts != 3).any() or words is None or pa.types.is_null(words.type) or words.null_count:
        return None
    if not _strings(words):
        raise Unsupported(f"claims of type {triples.type}")
    return given, count


def _text(column: pa.Array | None, n: int) -> pa.Array:
    """A text column as large strings, "" where missing."""
    if column is None:
        return pa.array([""] * n, type=pa.large_string())
    return pc.fill_null(column.cast(pa.large_string()), "")


def part_of(columns: dict[str, pa.Array], n: int, query_ids: pa.Array, unnamed: np.ndarray) -> _Part | None:
    """The fast path's columns (a ``_Part``) of ``n`` rows of RAGChecker's plain columns (each one
    array; ``query_ids`` as large strings, "" at the ``unnamed`` positions): None where the validator
    must read them (a wrong shape, a duplicate doc_id, an empty passage text, another label spelling,
    nothing to score); :class:`Unsupported` for a column type this path does not read."""
    for name in TEXTS:
        if name in columns and not _strings(columns[name]):
            raise Unsupported(f"{name} of type {columns[name].type}")
    has_psg, k, passages = _lists(columns.get("retrieved_context"), n)
    resp = _claims(columns.get("response_claims"), n)
    gt = _claims(columns.get("gt_answer_claims"), n)
    if resp is None or gt is None:
        return None
    (has_resp, nr), (has_gt, ng) = resp, gt
    if (~has_psg & ~has_resp & ~has_gt).any():
        return None  # nothing to score, or labels without their claims
    k = np.where(has_psg, k, 0)
    if passages is not None and len(passages):
        kind = passages.type
        names = [kind.field(i).name for i in range(kind.num_fields)] if pa.types.is_struct(kind) else []
        if sorted(names) != ["doc_id", "text"]:
            raise Unsupported(f"passages of type {kind}")
        fields = dict(zip(names, passages.flatten()))
        doc_id, text = fields["doc_id"], fields["text"]
        if passages.null_count or not (_strings(doc_id) and _strings(text)) or doc_id.null_count or text.null_count:
            return None
        if len(text) and pc.min(pc.binary_length(text)).as_py() == 0:
            return None  # an empty passage text: the validator says it
        owner = np.repeat(np.arange(n, dtype=np.int64), k)
        codes = pc.dictionary_encode(doc_id).indices.to_numpy(zero_copy_only=False).astype(np.int64)
        keys = np.sort(owner * (int(codes.max()) + 1) + codes)
        if (keys[1:] == keys[:-1]).any():
            return None  # a sample names one doc_id twice
    no_psg = has_psg & (k == 0)
    has, labels = {}, {}
    for name, rows in (("answer2response", nr), ("response2answer", ng)):
        given, length, values = _lists(columns.get(name), n)
        if (given & (length != rows)).any():
            return None
        codes = np.zeros(0, dtype=np.int8) if values is None else _codes(values)
        if codes is None:
            return None
        has[name] = given | (~given & (rows == 0))
        per_claim = np.zeros(int(np.maximum(rows, 0).sum()), dtype=np.int8)
        per_claim[np.repeat(given, np.maximum(rows, 0))] = codes
        labels[name] = per_claim
    for name, rows in (("retrieved2response", nr), ("retrieved2answer", ng)):
        given, length, grid_rows = _lists(columns.get(name), n)
        if (given & (length != rows)).any():
            return None
        codes = np.zeros(0, dtype=np.int8)
        if grid_rows is not None and len(grid_rows):
            if pa.types.is_null(grid_rows.type) or grid_rows.null_count:
                return None
            _, width, values = _lists(grid_rows, len(grid_rows))
            if (width != np.repeat(k, np.where(given, length, 0))).any():
                return None  # a row of the grid is not one label per passage
            codes = _codes(values) if values is not None else np.zeros(0, dtype=np.int8)
            if codes is None:
                return None
        has[name] = given | (~given & ((rows == 0) | ((rows > 0) & no_psg)))
        labels[name] = codes
    return _Part(n=n, starts=None, ends=None, query_ids=pa.chunked_array([query_ids], type=pa.large_string()),
                 unnamed=unnamed, counts=np.stack([np.maximum(nr, 0), np.maximum(ng, 0), k]).astype(np.int64),
                 has={name: has[name] for name in (*LABEL_VECTORS, *LABEL_GRIDS)},
                 labels={name: labels[name] for name in (*LABEL_VECTORS, *LABEL_GRIDS)},
                 texts={name: pa.chunked_array([_text(columns.get(name), n)]) for name in TEXTS})


def flat_from_arrow(table: pa.Table) -> FlatRecords | None:
    """The FlatRecords of ``table`` (see the module docstring): None where the validator must read
    it; :class:`Unsupported` for a column type this path does not read."""
    if "metrics" in table.column_names:
        raise Unsupported("ragchecker's own metrics column")
    columns = _columns(table)
    qid = columns.get("query_id")
    if qid is None or qid.null_count or not (_strings(qid) or pa.types.is_integer(qid.type)):
        raise Unsupported("query_id must be strings or integers, none missing")
    part = part_of(columns, table.num_rows, qid.cast(pa.large_string()), np.zeros(0, dtype=np.int64))
    return None if part is None else _merge(part, ArrowRows(table))


PASSAGE = pa.struct([("doc_id", pa.string()), ("text", pa.string())])
WORDS, GRID = pa.list_(pa.string()), pa.list_(pa.list_(pa.string()))
LINE_FIELDS = {"query": pa.string(), "gt_answer": pa.string(), "response": pa.string(),
               "retrieved_context": pa.list_(PASSAGE), "response_claims": GRID, "gt_answer_claims": GRID,
               "answer2response": WORDS, "response2answer": WORDS, "retrieved2response": GRID, "retrieved2answer": GRID}
QUERY_ID_TYPES = (pa.string(), pa.int64())  # a block's query_ids are all strings or all integers
JSONL_BLOCK = 32 * 2**20  # bytes of a JSONL file read at a time, cut at a line end
PARSE_BLOCK = 4 * 2**20  # bytes of a block each of Arrow's threads parses at a time
GZIP = b"\x1f\x8b"
CODEC = "lz4"  # a gzipped file's text, kept a piece at a time for its samples' lines
PACK_PIECE = 2**20  # bytes of such text compressed as one (what a line read in any order unpacks)
MAX_PARSE_BLOCK = 2**30  # the most Arrow's reader takes as one (a block size is an int32 there)


def read_jsonl(path: str) -> FlatRecords | None:
    """The FlatRecords of a JSONL file of RAGChecker's plain records (gzipped or not), each block of
    its lines parsed by Arrow's JSON reader (C++, on every core, into typed columns: no Python object
    per record) and turned into label arrays by :func:`part_of` while the next block is parsed; each
    sample's line kept as its offsets, read again from the file, or for a gzipped one (which cannot
    be read again at an offset) from its text kept compressed a piece at a time (:class:`PackedText`).
    None where any line is not read here exactly as :mod:`ragwidgets._fastload` reads it (a key the
    schema does not have, ragchecker's per-sample metrics among them, another type, a line that is
    not one object, a key given twice, bytes that are not UTF-8, a null query_id, a damaged gzip
    stream, a file changed while it was read): that path then reads the file."""
    path = str(path)
    try:
        stamp = _stamp(path)
        with open(path, "rb") as f:
            gzipped = f.read(2) == GZIP
        with (gzip.open(path, "rb") if gzipped else open(path, "rb")) as f:
            read = _read(_stream_blocks(f) if gzipped else _blocks(f), pack=gzipped)
    except (OSError, EOFError, zlib.error):  # unreadable, or a damaged gzip stream: the loader says which
        return None
    if read is None or _stamp(path) != stamp:
        return None
    parts, packed = read
    part = _concat(parts)
    del parts
    pa.default_memory_pool().release_unused()  # the parsed blocks' memory, given back as _finish gives back its own
    source = (Lines(part.starts, part.ends, data=PackedText(*packed)) if gzipped
              else Lines(part.starts, part.ends, path=path, stamp=stamp))
    return _finish(part, source)


def _read(blocks: Iterator[tuple[memoryview, int]], pack: bool) -> tuple[list[_Part], tuple] | None:
    """The parts of ``blocks``, each parsed (and with ``pack``, compressed: :func:`_pack`) on a thread
    while the one before becomes parts here; and the packed pieces, their sizes and offsets."""
    parts: list[_Part] = []
    packed: tuple[list, list, list] = ([], [], [])

    def work(block: memoryview, at: int):
        parsed = _parse(block, at)
        return parsed, (_pack(block, at, parsed[3]) if pack and parsed else None)

    with ThreadPoolExecutor(1) as parser:
        block = next(blocks, None)
        done = block and parser.submit(work, *block)
        while done:
            block = next(blocks, None)  # read and parsed beside this one's parts
            following = block and parser.submit(work, *block)
            try:
                parsed, kept = done.result()
                read = parsed and _parts(*parsed)
            except pa.ArrowException:  # a value Arrow cannot hold as this path reads it
                read = None
            if read is None:
                if following:
                    following.cancel()
                return None
            parts.extend(read)
            if pack:
                for held, values in zip(packed, kept):
                    held.extend(values)
            done = following
    return (parts, packed) if parts else None


def _blocks(f) -> Iterator[tuple[memoryview, int]]:
    """(block, at) of the file ``f``: about JSONL_BLOCK bytes of whole lines at a time (more where one
    line is longer), after a byte order mark, each with its first byte's offset in the file."""
    at = len(BOM) if f.read(len(BOM)) == BOM else 0
    size = JSONL_BLOCK
    while True:
        f.seek(at)
        block = f.read(size)
        if not block:
            return
        cut = len(block) if len(block) < size else block.rfind(b"\n") + 1
        if not cut:  # a line longer than the block
            size *= 2
            continue
        yield memoryview(block)[:cut], at
        at, size = at + cut, JSONL_BLOCK


def _stream_blocks(f) -> Iterator[tuple[memoryview, int]]:
    """(block, at) of a stream that cannot seek (a gzipped file's text), as :func:`_blocks`: the
    text after a line's end is carried into the next block."""
    tail = f.read(len(BOM))
    at = len(BOM) if tail == BOM else 0
    tail = b"" if at else tail
    while True:
        more = f.read(JSONL_BLOCK)
        block = tail + more
        if not block:
            return
        cut = len(block) if not more else block.rfind(b"\n") + 1
        if cut:
            yield memoryview(block)[:cut], at
        at, tail = at + cut, block[cut:]


def _pack(block: memoryview, at: int, starts: np.ndarray) -> tuple[list[pa.Buffer], list[int], list[int]]:
    """A block's text (its first byte the text's byte ``at``; ``starts``: its lines') as compressed
    pieces of about PACK_PIECE bytes, each cut at a line's start: (pieces, their sizes, their offsets)."""
    cuts = [at]
    if len(starts):
        wanted = np.searchsorted(starts, at + np.arange(PACK_PIECE, len(block), PACK_PIECE)).clip(max=len(starts) - 1)
        cuts = np.unique(np.r_[at, starts[wanted]]).tolist()
    bounds = [*cuts, at + len(block)]
    pieces = [block[lo - at:hi - at] for lo, hi in zip(bounds, bounds[1:])]
    return [pa.compress(piece, codec=CODEC, asbytes=False) for piece in pieces], [len(p) for p in pieces], cuts


class PackedText:
    """A text kept a piece of whole lines at a time (about PACK_PIECE bytes), each compressed (LZ4):
    ``text[start:end]``, a range within one piece (a line), unpacks that piece (~1 ms; the last one
    unpacked is kept, so lines read in order unpack each piece once)."""

    def __init__(self, blocks: list[pa.Buffer], sizes: list[int], starts: list[int]):
        self.blocks, self.sizes, self.starts = blocks, sizes, np.asarray(starts, dtype=np.int64)
        self._last: tuple[int, bytes] = (-1, b"")

    def __getitem__(self, span: slice) -> bytes:
        k = int(np.searchsorted(self.starts, span.start, side="right")) - 1
        last = self._last
        if last[0] != k:
            last = self._last = (k, pa.decompress(self.blocks[k], decompressed_size=self.sizes[k], codec=CODEC,
                                                  asbytes=True))
        offset = int(self.starts[k])
        return last[1][span.start - offset:span.stop - offset]


def _parse(block: memoryview, at: int) -> tuple[pa.Table, memoryview, int, np.ndarray, np.ndarray] | None:
    """A block of whole lines (its first byte the file's byte ``at``) parsed by Arrow, with its lines'
    offsets in the file (:func:`_lines`): None where it is not read here."""
    lines = _lines(block, at)
    if lines is None or not _utf8(block):
        return None
    starts, ends = lines
    chunk = max(PARSE_BLOCK, 2 * int((ends - starts).max(initial=0)) + 2)  # a line over two chunks aborts the process
    if chunk > MAX_PARSE_BLOCK:
        return None
    options = pj.ReadOptions(block_size=chunk)
    for kind in QUERY_ID_TYPES:
        schema = pa.schema([("query_id", kind), *LINE_FIELDS.items()])
        try:
            table = pj.read_json(pa.BufferReader(pa.py_buffer(block)), read_options=options,
                                 parse_options=pj.ParseOptions(explicit_schema=schema, newlines_in_values=False,
                                                               unexpected_field_behavior="error"))
        except pa.ArrowInvalid:  # another type, or a key the schema does not have (ragchecker's metrics too:
            continue             # inferring one's type recurses, and deep nesting crashes the process)
        return (table, block, at, starts, ends) if table.num_rows == len(starts) else None  # else a line holds two values
    return None


def _parts(table: pa.Table, block: memoryview, at: int, starts: np.ndarray, ends: np.ndarray) -> list[_Part] | None:
    """The parts of a parsed block (:func:`_parse`), one per batch Arrow gave; None where one is not
    read here."""
    parts, row = [], 0
    for batch in table.to_batches():
        n = batch.num_rows
        columns = dict(zip(batch.schema.names, batch.columns))
        qid = columns.pop("query_id")
        unnamed = np.flatnonzero(qid.is_null().to_numpy(zero_copy_only=False))
        if len(unnamed) and not _unnamed(block, starts[row + unnamed] - at, ends[row + unnamed] - at):
            return None
        part = part_of(columns, n, pc.fill_null(qid.cast(pa.large_string()), ""), unnamed)  # the schema's types
        if part is None:
            return None
        part.starts, part.ends = starts[row:row + n], ends[row:row + n]
        parts.append(part)
        row += n
    return parts


def _lines(block: memoryview, at: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(starts, ends) in the file of the lines of ``block`` that are not blank (as ``bytes.strip``
    sees them; the file's byte ``at`` first): None where one does not begin with "{" and end with
    "}" inside its spaces. So every line end falls between two whole values ("}" then "{" is
    valid JSON only there, and a string holds no raw line end), and as many rows as lines means
    one value a line (Arrow's reader joins a value over lines, and reads two on one)."""
    buf = np.frombuffer(block, dtype=np.uint8)
    ends = np.flatnonzero(buf == ord("\n"))
    starts = np.r_[0, ends + 1]
    ends = np.r_[ends, len(buf)]
    if starts[-1] == len(buf):  # nothing after the last line end
        starts, ends = starts[:-1], ends[:-1]
    full = starts < ends
    keep = full.copy()
    keep[full] = (buf[starts[full]] == ord("{")) & (buf[ends[full] - 1] == ord("}"))
    for i in np.flatnonzero(full & ~keep).tolist():  # spaces around a line (a "\r" before its end), or only spaces
        line = bytes(block[starts[i]:ends[i]]).strip()
        if line and not (line.startswith(b"{") and line.endswith(b"}")):
            return None
        keep[i] = bool(line)
    return starts[keep] + at, ends[keep] + at


def _utf8(block: memoryview) -> bool:
    """Whether ``block`` is UTF-8 (checked by Arrow; its JSON reader does not check)."""
    offsets = pa.py_buffer(np.array([0, len(block)], dtype=np.int64))
    try:
        pa.Array.from_buffers(pa.large_binary(), 1, [None, offsets, pa.py_buffer(block)]).cast(pa.large_string())
    except pa.ArrowInvalid:
        return False
    return True


def _unnamed(block: memoryview, starts: np.ndarray, ends: np.ndarray) -> bool:
    """Whether the lines with no query_id read by Arrow have none: a record whose query_id is null
    (Arrow reads it as missing) is not this path's."""
    decode = _DECODERS["text"].decode
    for start, end in zip(starts.tolist(), ends.tolist()):
        line = bytes(block[start:end])
        if b"null" in line:
            try:
                decode(line)
            except msgspec.DecodeError:
                return False
    return True
