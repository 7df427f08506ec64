"""Scores as JSON: one object per sample, written in chunks with msgspec (no per-run copy of the text).

Per sample: ``query_id``, ``metrics`` (a float, or null for Undefined; not-computable metrics
left out), ``undefined`` (why each null is Undefined) and ``not_computable`` (what the sample
lacks for each metric left out). Reasons are worked out once per pattern of statuses and data,
not per sample. A lone surrogate (which UTF-8 cannot carry, say from a JSON ``"\\ud800"``) is written
as U+FFFD, here and in every output of the command line (``REPLACE``).
"""

from __future__ import annotations

import codecs
import re
from operator import itemgetter
from typing import BinaryIO, Iterator

import msgspec
import numpy as np

from .engine.evaluate import NOT_COMPUTABLE, STATUS_CODES, UNDEFINED, Scores

CHUNK = 2_000  # samples encoded and written at a time (a small chunk keeps the peak memory low)
_encoder = msgspec.json.Encoder()
REPLACE = "ragwidgets.replace"
"""An encoding error handler: a character the encoding cannot carry (a lone surrogate) as U+FFFD."""
_SURROGATE = re.compile("[\ud800-\udfff]")


def _replacement(err: UnicodeEncodeError) -> tuple[bytes, int]:
    return "\ufffd".encode(err.encoding, "replace") * (err.end - err.start), err.end


codecs.register_error(REPLACE, _replacement)


def without_surrogates(value):
    """``value`` (JSON-like: dicts, lists, strings) with every lone surrogate in its strings as U+FFFD."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {without_surrogates(k): without_surrogates(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [without_surrogates(v) for v in value]
    return value


def _encode(value, lines: bool = False) -> bytes:
    """``value`` as JSON (``lines``: a list, one item per line); a lone surrogate as U+FFFD."""
    encode = _encoder.encode_lines if lines else _encoder.encode
    try:
        return encode(value)
    except UnicodeEncodeError:  # rare: encoded again with the surrogates replaced
        return encode(without_surrogates(value))


def _columns(scores: Scores, start: int, stop: int) -> list[tuple]:
    return [(shown, part, name, value[start:stop], part.code[name][start:stop])
            for part in scores.parts for shown, value, _, name in part.columns()]


def _patterns(scores: Scores, columns: list[tuple], start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """(pattern ids, one sample of each pattern) over samples start:stop; a pattern is every
    metric's status and which needs the sample meets, so it fixes the not-computable reasons."""
    digits = [(code, 2) for *_, code in columns] + [(scores.batch.has[need][start:stop], 1)
                                                     for need in sorted(scores.batch.has)]
    key = np.zeros(stop - start, dtype=np.int64)
    for digit, bits in digits:
        if key.max(initial=0) >= 1 << 60:  # renumber the patterns so far before the key overflows
            key = np.unique(key, return_inverse=True)[1].astype(np.int64)
        key = (key << bits) + digit
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    return inverse, first + start


def _chunk_results(scores: Scores, start: int, stop: int) -> list[dict]:
    """Every sample's result object for samples start:stop (see the module docstring)."""
    columns = _columns(scores, start, stop)
    inverse, examples = _patterns(scores, columns, start, stop)
    rows = np.column_stack([column[3] for column in columns]).tolist() if columns else [[]] * (stop - start)
    shapes = []  # per pattern: (metric keys, picker of their values, Undefined columns, not-computable reasons)
    for i in examples.tolist():
        at = i - start
        shown = [j for j, column in enumerate(columns) if column[4][at] != STATUS_CODES[NOT_COMPUTABLE]]
        shapes.append(([columns[j][0] for j in shown],
                       itemgetter(*shown) if len(shown) > 1 else lambda row, j=tuple(shown): [row[k] for k in j],
                       [j for j in shown if columns[j][4][at] == STATUS_CODES[UNDEFINED]],
                       {c[0]: c[1].reason_of(c[2], i) for c in columns if c[4][at] == STATUS_CODES[NOT_COMPUTABLE]}))
    out = []
    for k, (qid, row, p) in enumerate(zip(scores.batch.query_ids[start:stop], rows, inverse.tolist())):
        keys, pick, undefined_at, not_computable = shapes[p]
        undefined = {}
        for j in undefined_at:
            shown_name, part, name, *_ = columns[j]
            row[j] = None
            undefined[shown_name] = part.reason_of(name, start + k)
        out.append({"query_id": qid, "metrics": dict(zip(keys, pick(row))), "undefined": undefined,
                    "not_computable": not_computable})
    return out


def _chunks(scores: Scores) -> Iterator[list[dict]]:
    n = scores.batch.n_samples
    for start in range(0, n, CHUNK):
        yield _chunk_results(scores, start, min(start + CHUNK, n))


def write_jsonl(scores: Scores, out: BinaryIO) -> None:
    """One JSON object per line and sample."""
    for chunk in _chunks(scores):
        out.write(_encode(chunk, lines=True))


def write_json(scores: Scores, out: BinaryIO, extra: dict) -> None:
    """``{"results": [...], **extra}``, indented by two spaces, the results encoded chunk by chunk."""
    out.write(b'{\n  "results": [')
    for n, chunk in enumerate(_chunks(scores)):
        text = msgspec.json.format(_encode(chunk), indent=2)[1:-2]  # the items, without [ and \n]
        out.write((b"," if n else b"") + text.replace(b"\n", b"\n  "))
    out.write(b"\n  ]" if scores.batch.n_samples else b"]")
    for key, value in extra.items():
        out.write(b",\n  " + _encode(key) + b": " + msgspec.json.format(_encode(value), indent=2)
                  .replace(b"\n", b"\n  "))
    out.write(b"\n}\n")
