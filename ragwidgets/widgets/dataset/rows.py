"""The table's rows as the front end asks for them (``js/src/dataset/rows.js``): windows of the
filtered order, one binary buffer per column (and one saying whether each row's labels are
reviewed), the first SEED_ROWS of them saved in ``_rows``, and the rows a review changed
(``_row_changes``), patched in place."""

from __future__ import annotations

import math

import numpy as np

from ...reviews import reviewed_cells

MAX_WINDOW = 2000  # rows per window
QUERY_CHARS = 160  # query text sent per row
SEED_ROWS = 50  # the first rows of the order, kept in the saved state (`_rows`)
REVIEWED = "reviewed"  # the numeric column saying whether a row's labels are reviewed: 0 none, 1 some, 2 all


def rows_message(version: int, start: int, positions: np.ndarray, *, run: list, query_id: list, query: list,
                 numeric: dict[str, np.ndarray], status: dict[str, np.ndarray]) -> tuple[dict, list[bytes]]:
    """A window of table rows for the front end: a header (positions and text columns) and one
    little-endian buffer per numeric column (float64, NaN = not defined) then per metric status
    (int8: 0 defined, 1 Undefined, 2 not computable)."""
    buffers = [np.asarray(v, dtype="<f8").tobytes() for v in numeric.values()]
    buffers += [np.asarray(v).astype(np.int8).tobytes() for v in status.values()]
    header = {"type": "rows", "version": version, "start": start, "positions": positions.tolist(), "run": run,
              "query_id": query_id, "query": query, "numeric": list(numeric), "status": list(status)}
    return header, buffers


def window(model, start: int, count: int) -> dict:
    """The model's window of rows, each query cut to QUERY_CHARS, with REVIEWED (see :func:`reviewed`)."""
    rows = model.window(start, count)
    return {**rows, "query": [q[:QUERY_CHARS] for q in rows["query"]],
            "numeric": {**rows["numeric"], REVIEWED: reviewed(model, rows)}}


def reviewed(model, rows: dict) -> np.ndarray:
    """Per row of a model's window ``rows`` (its positions, runs and query_ids): 2 every label of
    its sample reviewed, 1 some, 0 none (always 0 on a model that cannot review). Only the samples
    with a review are looked at."""
    out = np.zeros(len(rows["positions"]))
    if "reviews" not in model.capabilities or not len(out):
        return out
    reviews = model.reviews
    per_run = reviews if isinstance(reviews, dict) else {model.runs[0]: reviews}
    for k, (position, run, qid) in enumerate(zip(rows["positions"], rows["run"], rows["query_id"])):
        mine = per_run[run].for_sample(qid) if run in per_run else {}
        if mine:
            masks = reviewed_cells(model.sample(int(position)), mine)
            out[k] = 2 if all(m.all() for m in masks.values()) else 1
    return out


def _as_json(model, start: int, count: int) -> dict:
    """A window of the model's rows as JSON: its header with its numeric columns as lists (None
    for NaN) and its status codes."""
    header, _ = rows_message(model.version, start, **(rows := window(model, start, count)))
    return {**header, "values": [[v if math.isfinite(v) else None for v in np.asarray(col, dtype=float).tolist()]
                                 for col in rows["numeric"].values()],
            "codes": [np.asarray(col).astype(int).tolist() for col in rows["status"].values()]}


def seed(model) -> dict:
    """The first SEED_ROWS rows of the order, as ``_rows`` saves them (a window as JSON)."""
    return _as_json(model, 0, SEED_ROWS)


def changed(model, positions: np.ndarray) -> dict:
    """The rows of the order that a review changed (the reviewed samples at ``positions`` in
    ``frame`` and, comparing runs, the same queries' rows in the other runs: their difference; rows
    the filters leave out are not in the order), for the front end to patch in place while the
    order's ``version`` stays: ``{"version", "rows": [a one-row window as JSON, whose ``start`` is
    its place]}``."""
    if len(model.runs) > 1 and len(positions):
        ids = model.frame["query_id"].to_numpy()
        positions = np.flatnonzero(np.isin(ids, ids[positions]))
    places = np.flatnonzero(np.isin(model.order, positions)) if len(positions) else []
    return {"version": model.version, "rows": [_as_json(model, int(i), 1) for i in places]}
