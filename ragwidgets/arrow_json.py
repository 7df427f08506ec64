"""Arrow columns as JSON text, computed by Arrow (no Python loop per value).

:func:`json_text` gives each value of an array as its JSON text ("null" for a missing one):
strings quoted and escaped, booleans, integers, finite floats (a NaN or infinity is null), and
lists and structs of these, nested to any depth. :func:`jsonl_bytes` gives a table's rows as
JSON lines: one object per row, keyed by column name. A type JSON cannot hold as it is (a
timestamp, binary, a map) is a :class:`TypeError`.
"""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

_CONTROL = "[\\x00-\\x1f\u2028\u2029]"  # escaped one by one, by json.dumps: rare in text
_ESCAPED = '["\\\\\\x00-\\x1f\u2028\u2029]'  # a character JSON escapes
ROWS = 100_000  # rows turned into JSON text at a time


def _s(text: str | None) -> pa.Scalar:
    return pa.scalar(text, pa.large_string())


def _join(*parts) -> pa.Array:
    """The parts (arrays or texts) joined element-wise with nothing between; null if any is null."""
    return pc.binary_join_element_wise(*(_s(p) if isinstance(p, str) else p for p in parts), _s(""))


def _strings(values: pa.Array) -> pa.Array:
    """Each string quoted and escaped as JSON; null stays null (strings with nothing to escape,
    most of them, are only quoted)."""
    values = values.cast(pa.large_string())
    if pc.any(pc.match_substring_regex(values, _ESCAPED)).as_py():
        escaped = pc.replace_substring(pc.replace_substring(values, "\\", "\\\\"), '"', '\\"')
        control = pc.fill_null(pc.match_substring_regex(values, _CONTROL), False)
        if pc.any(control).as_py():
            at = np.flatnonzero(control.to_numpy(zero_copy_only=False))
            fixed = escaped.to_pylist()
            for i, v in zip(at.tolist(), values.take(at).to_pylist()):
                fixed[i] = json.dumps(v)[1:-1]
            escaped = pa.array(fixed, type=pa.large_string())
        values = escaped
    return _join('"', values, '"')


def _nested(values: pa.Array) -> pa.Array | None:
    """JSON text of a list or struct array's values (null where the value is null); None otherwise."""
    kind = values.type
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        offsets = values.offsets.cast(pa.int64())  # of a sliced array: into its child's whole values
        first, last = offsets[0].as_py(), offsets[-1].as_py()
        items = json_text(values.values.slice(first, last - first))
        lists = pa.LargeListArray.from_arrays(pc.subtract(offsets, first), items, mask=values.is_null())
        return _join("[", pc.binary_join(lists, _s(",")), "]")
    if pa.types.is_struct(kind):
        if kind.num_fields == 0:
            return pc.if_else(values.is_null(), _s(None), _s("{}"))
        return pc.if_else(values.is_null(), _s(None), _object(kind, values.flatten(), "}"))
    return None


def _object(kind: pa.StructType, children, end: str) -> pa.Array:
    """Per row, the JSON object of the struct's ``children`` (one join, no copy per field), then ``end``."""
    parts = []
    for k, child in enumerate(children):
        parts += [("{" if k == 0 else ",") + json.dumps(kind.field(k).name) + ":", json_text(child)]
    return _join(*parts, end)


def json_text(values: pa.Array | pa.ChunkedArray) -> pa.Array:
    """Each value of ``values`` as its JSON text (a large_string array; "null" for a missing value)."""
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    kind = values.type
    if pa.types.is_dictionary(kind):
        return json_text(values.dictionary_decode())
    if pa.types.is_null(kind):
        return pa.array(["null"] * len(values), type=pa.large_string())
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        text = _strings(values)
    elif pa.types.is_boolean(kind):
        text = pc.if_else(values, _s("true"), _s("false"))
    elif pa.types.is_integer(kind):
        text = values.cast(pa.large_string())
    elif pa.types.is_floating(kind):
        finite = pc.is_finite(values)
        text = pc.if_else(finite, values.cast(pa.large_string()), _s(None))
    else:
        text = _nested(values)
        if text is None:
            raise TypeError(f"a column of type {kind} has no JSON form here")
    return pc.fill_null(text, _s("null"))


def jsonl_bytes(table: pa.Table) -> bytes:
    """The rows of ``table`` as JSON lines (UTF-8), one object per row keyed by column name."""
    out = []
    for batch in table.to_batches(max_chunksize=ROWS):
        lines = _object(pa.struct(batch.schema), batch.columns, "}\n") if batch.num_columns else \
            pa.array(["{}\n"] * batch.num_rows, type=pa.large_string())
        offsets = np.frombuffer(lines.buffers()[1], dtype=np.int64)[lines.offset:lines.offset + len(lines) + 1]
        out.append(lines.buffers()[2].to_pybytes()[offsets[0]:offsets[-1]] if len(lines) else b"")
    return b"".join(out)
