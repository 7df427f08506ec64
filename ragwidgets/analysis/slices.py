"""Named failure slices: a filter expression with a name, listed side by side with size and means.

The built-in slices are the diagnostics RAGChecker's paper reads its metrics by; a slice is
offered only when the run has the metrics it reads. Slices are saved to and loaded from a small
JSON file: ``{"slices": [{"name", "expression", "description"}]}``. A slices file is someone else's
input: only a regular file of at most MAX_SLICES_BYTES is read (opened without blocking and
checked on the opened descriptor, so a device or a named pipe is refused, not read until memory
runs out or a writer comes); text that is not UTF-8 and JSON nested too deep are InputErrors
naming it; its expressions are checked against the expression language's whitelist when it is
read, an expression naming a column the run lacks names the slice and the file, and it may not
give a built-in slice's name to another expression.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..atomic import atomic_write
from ..errors import InputError
from .expression import ExpressionError, parse
from .filtering import expression_mask
from .table import RunTable

MAX_SLICES_BYTES = 16 << 20  # a slices file holds a few expressions: a larger one is refused unread

@dataclass(frozen=True)
class Slice:
    """A named subset of a run: the samples where ``expression`` holds."""

    name: str
    expression: str
    description: str = ""
    reads: tuple[str, ...] = ()  # metrics the expression needs (built-in slices)
    source: str = field(default="", compare=False, repr=False)  # the file it was read from ("": not read)


BUILTIN_SLICES = (
    Slice("retrieval missed needed claims", "claim_recall < 1",
          "a ground-truth claim is entailed by no retrieved passage", ("claim_recall",)),
    Slice("generator ignored retrieved evidence", "context_utilization < 1",
          "a retrieved ground-truth claim is missing from the response", ("context_utilization",)),
    Slice("misled by noise", "noise_sensitivity_in_relevant > 0 or noise_sensitivity_in_irrelevant > 0",
          "an incorrect response claim is entailed by a retrieved passage",
          ("noise_sensitivity_in_relevant", "noise_sensitivity_in_irrelevant")),
    Slice("hallucinated", "hallucination > 0", "an incorrect response claim is entailed by no passage",
          ("hallucination",)),
    Slice("abstained or empty", "n_response_claims == 0",
          "the response makes no claims: precision and faithfulness are Undefined"),
    Slice("unfaithful", "faithfulness < 1", "a response claim is entailed by no retrieved passage",
          ("faithfulness",)),
    Slice("invalid citations", "citation_precision < 1", "a citation is not retrieved or does not entail",
          ("citation_precision",)),
)


BUILTIN_NAMES = {s.name: s.expression for s in BUILTIN_SLICES}


def check_builtin_name(s: Slice) -> None:
    """Refuse a slice that gives a built-in slice's name to another expression (the same one is that slice)."""
    if BUILTIN_NAMES.get(s.name, s.expression) != s.expression:
        raise InputError(f"{s.name!r} is a built-in slice ({BUILTIN_NAMES[s.name]}); give {s.expression!r} "
                         "another name", sample=f"slice {s.name!r}", field="name")


def builtin_slices(table: RunTable) -> list[Slice]:
    """The built-in slices whose metrics the run has."""
    return [s for s in BUILTIN_SLICES if set(s.reads) <= set(table.metrics)]


def members(table: RunTable, s: Slice) -> np.ndarray:
    """Positions of the samples in slice ``s``; an InputError naming the slice (and the file it was
    read from) when its expression does not evaluate on ``table`` (a column the run lacks)."""
    try:
        return np.flatnonzero(expression_mask(table.frame.drop(columns=["query", "response"]), s.expression))
    except ExpressionError as err:
        where = f"slice {s.name!r}" + (f" (from {s.source})" if s.source else "")
        raise InputError(str(err), sample=where, field="expression") from None


def slice_table(table: RunTable, slices: list[Slice]) -> pd.DataFrame:
    """One row per slice: size, share of the run, and each metric's mean over its defined members."""
    rows = []
    values = table.frame[table.metrics].to_numpy(dtype=float)
    for s in slices:
        inside = members(table, s)
        defined = ~np.isnan(values[inside])
        with np.errstate(invalid="ignore"):
            means = np.where(defined, values[inside], 0).sum(axis=0) / defined.sum(axis=0)
        rows.append({"slice": s.name, "expression": s.expression, "size": len(inside),
                     "share": len(inside) / table.n if table.n else np.nan,
                     **dict(zip(table.metrics, means))})
    return pd.DataFrame(rows, columns=["slice", "expression", "size", "share", *table.metrics])


def save_slices(path: str | Path, slices: list[Slice]) -> None:
    """Write ``slices`` as JSON (name, expression, description)."""
    payload = {"slices": [{k: v for k, v in asdict(s).items() if k not in ("reads", "source")} for s in slices]}
    with atomic_write(path, encoding="utf-8") as out:  # a failed write leaves the old file as it was
        out.write(json.dumps(payload, indent=2) + "\n")


def _read_text(path: Path) -> str:
    """The text of the slices file ``path``; InputError unless it is a regular file of at most
    MAX_SLICES_BYTES of UTF-8. Opened without blocking (a named pipe with no writer) and checked
    with fstat on the opened descriptor (no swap of the file between the check and the read)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with open(fd, "rb") as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise InputError(f"cannot read slices from {path}: not a regular file")
            data = f.read(MAX_SLICES_BYTES + 1)
    except OSError as err:
        raise InputError(f"cannot read slices from {path}: {err}") from None
    if len(data) > MAX_SLICES_BYTES:
        raise InputError(f"cannot read slices from {path}: {max(info.st_size, len(data)):,} bytes is larger than "
                         f"{MAX_SLICES_BYTES >> 20} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(f"cannot read slices from {path}: not UTF-8 text ({err.reason} at byte {err.start})") from None


def load_slices(path: str | Path) -> list[Slice]:
    """Read slices written by :func:`save_slices` (see the module's docstring for what a file may
    be); an InputError names the file, the slice and the field at fault."""
    path = Path(path)
    text = _read_text(path)
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"cannot read slices from {path}: {err}") from None
    except RecursionError:
        raise InputError(f"cannot read slices from {path}: JSON nested too deep") from None
    if not isinstance(payload, dict) or not isinstance(payload.get("slices"), list):
        raise InputError(f"{path} must hold {{\"slices\": [...]}}", field="slices")
    out = []
    for k, item in enumerate(payload["slices"]):
        for key in ("name", "expression"):
            if not isinstance(item, dict) or not isinstance(item.get(key), str) or not item[key].strip():
                raise InputError(f"{path}: needs a non-empty string", sample=f"slice {k}", field=key)
        s = Slice(item["name"], item["expression"], str(item.get("description", "")), source=str(path))
        try:
            parse(s.expression)
        except ExpressionError as err:
            raise InputError(f"{path}: {err}", sample=f"slice {k} ({s.name!r})", field="expression") from None
        check_builtin_name(s)
        out.append(s)
    return out
