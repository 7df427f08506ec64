"""Row filters over a run's table: a text search and a filter expression.

An expression reads the table's columns (metrics, ``n_response_claims``, ``n_gt_claims``,
``n_passages``): ``hallucination > 0 and claim_recall < 1``, in the language of
:mod:`ragwidgets.analysis.expression` (parsed against a whitelist, never evaluated as Python). A
comparison with an Undefined value (NaN) is false, so Undefined samples never pass a threshold by
accident.
"""

from __future__ import annotations

import functools
import os
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .expression import parse

TEXT_COLUMNS = ("query", "response")
SCAN_BYTES = 3  # a shorter text hits most rows, many times each: searched row by row instead
NARROW = 4  # a text holding the last one is looked for in its rows when they are at most 1/NARROW of all
MAX_PARTS = 4  # threads a large column is scanned in, at most
PART_BYTES = 8 * 2**20  # a column is scanned in one more part for each this many bytes


def expression_mask(frame: pd.DataFrame, expression: str) -> np.ndarray:
    """Rows of ``frame`` where ``expression`` holds; an ExpressionError (a ValueError) naming the
    part at fault when it is refused or cannot be evaluated."""
    return parse(expression, frame.columns).mask(frame)


class TextIndex:
    """Case-insensitive substring search over query_id, query and response.

    Each row is its three texts joined and ended by NUL (``id\\0query\\0response\\0``),
    lowercased once (as ``str.lower`` does: Arrow's lowercasing for ASCII rows, Python's for the
    others), in one Arrow column whose bytes are scanned at once: Arrow splits them (one binary
    value viewing the column's data, not a copy) at every occurrence, the pieces' lengths give each
    hit's offset and ``np.searchsorted`` over the row offsets its row, with no Python step per hit
    (a text without NUL cannot match across rows; one with NUL, or under SCAN_BYTES, is searched
    row by row by ``pyarrow.compute``). A large column is scanned in parts cut at row starts, one
    thread each (Arrow releases the GIL), at most one per usable core. A text holding the last one
    searched is looked for only in the rows that held that one (typing), when they are few.
    """

    def __init__(self, frame: pd.DataFrame):
        parts = [_strings(frame.index)] + [_strings(frame[c]) for c in TEXT_COLUMNS if c in frame]
        nul = pa.scalar("\x00", pa.large_string())
        joined = pc.binary_join_element_wise(*parts, pa.scalar("", pa.large_string()), nul)
        lowered = pc.ascii_lower(joined)
        other = np.flatnonzero(~pc.string_is_ascii(joined).to_numpy(zero_copy_only=False))
        if len(other):  # full Unicode case mapping (İ -> i̇), as str.lower
            fixed = pa.array([t.lower() for t in joined.take(other).to_pylist()], type=pa.large_string())
            mask = np.zeros(len(joined), dtype=bool)
            mask[other] = True
            lowered = pc.replace_with_mask(lowered, pa.array(mask), fixed)
        if isinstance(lowered, pa.ChunkedArray):  # several runs' columns: one array
            lowered = lowered.combine_chunks()
        self._text = lowered
        offsets = np.frombuffer(lowered.buffers()[1], dtype=np.int64)[lowered.offset:lowered.offset + len(lowered) + 1]
        self._starts = offsets - offsets[0]
        data = lowered.buffers()[2]
        whole = data.slice(offsets[0], offsets[-1] - offsets[0]) if data is not None else pa.py_buffer(b"")
        cuts = _cuts(self._starts, _parts(whole.size))
        self._pieces = [(int(a), _one_value(whole.slice(a, b - a))) for a, b in zip(cuts[:-1], cuts[1:])]
        self._last: tuple[str, np.ndarray] | None = None

    @classmethod
    def later(cls, frame: pd.DataFrame) -> Future:
        """The index of ``frame`` built on a thread (Arrow works without the GIL), beside whatever
        the caller does next; ``.result()`` waits for it."""
        return _pool(1).submit(cls, frame)

    def mask(self, text: str) -> np.ndarray:
        """Rows whose query_id, query or response contains ``text`` (all rows for an empty text)."""
        n = len(self._text)
        if not text or not n:
            return np.ones(n, dtype=bool)
        text = text.lower()
        last = self._last
        if last is not None and last[0] in text and last[1].sum() <= n // NARROW:  # only the rows that held it
            rows = np.flatnonzero(last[1])
            found = np.zeros(n, dtype=bool)
            if len(rows):
                found[rows] = self._search(self._text.take(pa.array(rows)), text)
        elif "\x00" in text or len(text.encode("utf-8")) < SCAN_BYTES:
            found = self._search(self._text, text)
        else:
            pattern = text.encode("utf-8")
            found = np.zeros(n, dtype=bool)
            scans = _pool(len(self._pieces)).map(lambda piece: _occurrences(piece, pattern), self._pieces)
            for hits in scans:
                found[np.searchsorted(self._starts, hits, side="right") - 1] = True
        self._last = (text, found)
        return found.copy()

    @staticmethod
    def _search(rows: pa.Array, text: str) -> np.ndarray:
        """Which of ``rows`` (each ended by NUL) contain ``text``, the end not counted."""
        if "\x00" in text:
            rows = pc.utf8_slice_codeunits(rows, 0, -1)
        return pc.match_substring(rows, text).to_numpy(zero_copy_only=False)


def _parts(size: int) -> int:
    """Parts to scan ``size`` bytes in: one per usable core (at most MAX_PARTS), one per PART_BYTES."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(cores, MAX_PARTS, size // PART_BYTES))


def _cuts(starts: np.ndarray, parts: int) -> np.ndarray:
    """Byte offsets cutting the rows (``starts``: each row's first byte, then the end) into
    ``parts`` runs of whole rows of about equal size: 0, ..., the end."""
    end = int(starts[-1])
    inner = starts[np.searchsorted(starts, [end * k // parts for k in range(1, parts)])]
    return np.unique(np.r_[0, inner, end])


def _one_value(data: pa.Buffer) -> pa.Array:
    """A large_binary array of one value viewing ``data`` (not a copy)."""
    offsets = pa.py_buffer(np.array([0, data.size], dtype=np.int64))
    return pa.Array.from_buffers(pa.large_binary(), 1, [None, offsets, data])


def _occurrences(piece: tuple[int, pa.Array], pattern: bytes) -> np.ndarray:
    """Where each occurrence of ``pattern`` starts, in the whole column's bytes, within the
    ``piece`` (its first byte's offset, its bytes): Arrow splits it there, the pieces' lengths
    give the places."""
    first, data = piece
    lengths = pc.binary_length(pc.list_flatten(pc.split_pattern(data, pattern))).to_numpy()
    return first + np.cumsum(lengths[:-1] + len(pattern)) - len(pattern)


@functools.cache
def _pool(threads: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(threads, thread_name_prefix="ragwidgets-search")


if hasattr(os, "register_at_fork"):  # a forked child has none of the parent's threads: new pools there
    os.register_at_fork(after_in_child=_pool.cache_clear)


def _strings(values) -> pa.Array:
    """``values`` (a pandas column or index) as one Arrow large_string array (Arrow-backed: not copied)."""
    # the column's own array: pyarrow's look for its protocols on a Series would each fall to pandas'
    # attribute lookup, which searches the (million-row) index for the name
    array = (pa.array(values.array) if isinstance(values.dtype, pd.StringDtype)
             else pa.array(values.astype(str).to_numpy()))
    return array.cast(pa.large_string()) if array.type != pa.large_string() else array


def filter_rows(frame: pd.DataFrame, text: str = "", expression: str = "",
                index: TextIndex | None = None) -> np.ndarray:
    """Positions of the rows matching both the text search and the expression (each optional)."""
    mask = (index or TextIndex(frame)).mask(text) if text else np.ones(len(frame), dtype=bool)
    if expression.strip():
        mask &= expression_mask(frame, expression)
    return np.flatnonzero(mask)
