"""Which failing samples to read next for error analysis, as a pure function of a run, the notes
so far and a seed.

The failing samples are those of the run's table (:func:`~ragwidgets.analysis.table.run_table`)
where ``where`` holds (a filter expression, :mod:`ragwidgets.analysis.expression`; "" = every
sample): the *population* a failure mode's rate is estimated over. ``random``: a simple random
sample of the failing samples not read yet, in random order; ``stratified``: the same within each
group of ``by``, each group's quota in proportion to its size (at least 2 when n allows, rounded at
random: :func:`~ragwidgets.analysis.review_queue` 's rules), so rates weight each group by its
size; ``all``: every failing sample not read yet, in the run's order (not a sample: the rates
among them are the rates over the population when all are read). Samples read before (any note in
force) are skipped: read at random before, the samples read in all stay a random sample of the
population, which :func:`~ragwidgets.analysis.failure_modes.mode_table` assumes of a queue passed
as its ``design``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..engine.evaluate import Scores
from ..notes import as_notes
from .filtering import expression_mask
from .review_queue import _quotas, _round, _strata, check_draw
from .table import run_table

STRATEGIES = ("random", "stratified", "all")


@dataclass(eq=False)
class ReadingQueue:
    """The failing samples to read, in order (``query_ids``; ``frame``: query_id, position in the
    run, stratum when stratified, why). The design, for rates over the run
    (:func:`~ragwidgets.analysis.failure_modes.mode_table`, ``design=queue``): ``population``
    the failing samples' query_ids in the run's order, ``where`` the expression that chose them,
    ``run_size`` the samples in the run, ``strategy``, and ``strata`` (stratified only) each
    population sample's group."""

    query_ids: list[str]
    frame: pd.DataFrame
    strategy: str
    where: str
    population: list[str]
    run_size: int
    strata: dict[str, str] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.query_ids)

    def __iter__(self):
        return iter(self.query_ids)


def reading_queue(scores: Scores, n: int, *, where: str = "", strategy: str = "random", by=None, seed: int = 0,
                  notes=None) -> ReadingQueue:
    """The next ``n`` failing samples to read (fewer when fewer are left; see the module
    docstring). ``notes``: the notes so far (a path, Notes, records; None: those ``scores``
    carry); ``by``: a column of the run's table, a group per sample or a mapping from query_id
    (stratified only). A ``where`` that is not a valid expression is an ExpressionError (a
    ValueError) naming the part at fault."""
    check_draw(n, strategy, STRATEGIES, by)
    if not isinstance(where, str):
        raise ValueError(f"where must be a filter expression (a string), not {where!r:.80}")
    frame = run_table(scores, share=True).frame
    failing = expression_mask(frame, where) if where.strip() else np.ones(len(frame), dtype=bool)
    notes = as_notes(notes if notes is not None else (scores.notes or ()))
    ids = np.asarray(scores.batch.query_ids, dtype=object)
    read = np.isin(ids, np.asarray(notes.query_ids, dtype=object)) if len(notes) else np.zeros(len(ids), bool)
    population = np.flatnonzero(failing)
    eligible = np.flatnonzero(failing & ~read)
    rng = np.random.default_rng(seed)
    columns, strata = {}, None
    if strategy == "all":
        chosen = eligible[:n]
        why = [f"failing sample {k + 1} of the {len(eligible)} not read" for k in range(len(chosen))]
    elif strategy == "random":
        chosen = rng.permutation(eligible)[:n]
        why = [f"simple random sample of the {len(eligible)} failing samples not read"] * len(chosen)
    else:
        groups = _strata(scores, by).astype(str)
        names, inverse = np.unique(groups[eligible], return_inverse=True)
        sizes = np.bincount(inverse, minlength=len(names))
        take = _round(_quotas(sizes, min(n, len(eligible)), sizes.astype(float)), rng)
        picked = [rng.permutation(eligible[inverse == k])[:take[k]] for k in range(len(names))]
        chosen = rng.permutation(np.concatenate(picked) if picked else eligible[:0])
        count, size = dict(zip(names, take)), dict(zip(names, sizes))
        columns["stratum"] = groups[chosen]
        why = [f"stratum {s}: {count[s]} of its {size[s]} failing samples not read" for s in columns["stratum"]]
        strata = {ids[i]: groups[i] for i in population}
    chosen = np.asarray(chosen, dtype=np.int64)
    qids = [str(ids[i]) for i in chosen]
    table = pd.DataFrame({"query_id": qids, "position": chosen, **columns, "why": why})
    return ReadingQueue(qids, table, strategy, where, [str(ids[i]) for i in population], len(ids), strata)
