"""What changed between two runs of the same queries, claim by claim: the evidence of a regression.

:func:`claim_changes` takes the queries that moved most on a metric (paired: both runs define it;
largest absolute difference first, as :meth:`~.compare.Comparison.per_sample` orders them) and,
within each, the labels that differ between the runs. The two runs' claims differ when their
answers do, so claims are matched by their text (case, runs of white space and a final full stop
ignored; a text said twice is matched in order); a claim in one run only is ``added`` (in the new
run) or ``removed``, with its label against the other answer and the passages that entail or
contradict it in that run (with neither: just added or removed). A matched claim's label against
the other answer (``answer2response`` for a response claim, ``response2answer`` for a ground-truth
claim) and its label by each retrieved passage (``retrieved2response`` / ``retrieved2answer``), the
passages matched by doc_id (by text where a doc_id names different texts in the two runs, as the
position names P1, P2, ... of passages given without doc_ids may), are compared: "entailed → not
entailed, by passage d3". A passage label
one run lacks (the passage not retrieved there, or the run has no such labels) is a change only
where the other run's is entailed or contradicted: a passage not retrieved entails nothing, and
neither does a neutral one.

Only the top queries' claims are read (their Samples, one at a time), so the cost at 100k samples
is the metric's paired difference and one sort."""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from ..engine.evaluate import Scores
from ..model import CONTRADICTED, ENTAILED, NOT_ENTAILED, UNJUDGED, Sample
from ..reviews import SPELLING
from .compare import compare_runs
from .table import RunTable, run_table

COLUMNS = ("query_id", "base_value", "new_value", "difference", "claim", "claim_text", "kind", "passage",
           "base_label", "new_label", "change")
NO_LABEL = None  # a label the run does not have: no such matrix, or the passage not retrieved there
LABELS = {**SPELLING, UNJUDGED: "unjudged"}  # a label code -> the frame's base_label / new_label
WORDS = {ENTAILED: "entailed", NOT_ENTAILED: "not entailed", CONTRADICTED: "contradicted", UNJUDGED: "unjudged",
         NO_LABEL: "no label"}  # a label code -> the change's words
NOT_RETRIEVED = "not retrieved"
QUIET = (NOT_ENTAILED, UNJUDGED)  # passage labels that say nothing more than no label at all
UNCHANGED = "no claim label changed"  # the change of a query that moved with every claim's labels as they were
SIDES = (  # claims field, the label against the other answer, the passages' label, the other answer's name
    ("response_claims", "answer2response", "retrieved2response", "the ground-truth answer"),
    ("gt_claims", "response2answer", "retrieved2answer", "the response"),
)


def normalised(text: str) -> str:
    """A claim's text as claims are matched by: case folded, white space runs as one space, no final full stop."""
    return " ".join(str(text).casefold().split()).removesuffix(".").rstrip()


def claim_changes(base, new, *, metric: str, top: int = 10) -> pd.DataFrame:
    """The ``top`` queries that moved most on ``metric`` from ``base`` to ``new`` (Scores, or
    RunTables, of two runs sharing query_ids; paired on the queries both define it on; a query
    that did not move is left out) and, within each, the labels that changed between the runs,
    one row per change (columns :data:`COLUMNS`):

    ``query_id``; ``base_value``, ``new_value``, ``difference`` (new − base) of ``metric``;
    ``claim`` (its 0-based index in the new run's claims of its side; the base run's for a removed
    claim) and ``claim_text``; ``kind`` (the label: ``answer2response`` / ``retrieved2response``
    for a response claim, ``response2answer`` / ``retrieved2answer`` for a ground-truth claim);
    ``passage`` (the doc_id of a ``retrieved2*`` label, else None); ``base_label`` / ``new_label``
    ("Entailment", "Neutral", "Contradiction", "unjudged"; None: no such label there, or the
    passage not retrieved there); ``change`` in words ("entailed → not entailed, by passage d3",
    "added (entailed by the ground-truth answer)", "removed (was entailed by passage d1)"). An
    added or removed claim has a row with its label against the other answer (where its run has
    such labels), then one per passage that entails or contradicts it there; with neither, one row
    "added" / "removed" of that kind with no labels. A query that moved with no label changed has one row
    with ``change`` "no claim label changed" and no claim. Rows follow the queries' order; within
    one, response claims then ground-truth claims, each side in the new run's order, then the
    removed claims in the base run's order, a claim's label against the other answer before its
    passages' (the base run's retrieval order, then the passages new to the new run)."""
    base_scores, new_scores = _scores(base, "base"), _scores(new, "new")
    top = _top(top)
    for name, scores in (("base", base_scores), ("new", new_scores)):
        if metric not in scores.names:
            raise ValueError(f"metric must be one of the {name} run's metrics ({', '.join(scores.names)}), "
                             f"not {metric!r:.80}")
    comparison = compare_runs({"base": run_table(base_scores, [metric]), "new": run_table(new_scores, [metric])},
                              adjust_by=None)
    return moved_claims(comparison.per_sample(metric, "new"), base_scores, new_scores, top=top)


def moved_claims(order: pd.DataFrame, base: Scores, new: Scores, *, top: int = 10) -> pd.DataFrame:
    """:func:`claim_changes` from ``order``, a :meth:`~.compare.Comparison.per_sample` frame
    (by query_id: the baseline's value, the run's, ``difference``; in the order to read them) of
    the runs ``base`` and ``new`` (their Scores): its first ``top`` queries that moved."""
    top = _top(top)
    difference = order["difference"].to_numpy(dtype=float)
    moved = order.iloc[np.flatnonzero(difference != 0)[:top]]
    rows = []
    for qid, (base_value, new_value, diff) in zip(moved.index, moved.iloc[:, [0, 1, 2]].itertuples(index=False)):
        values = (str(qid), float(base_value), float(new_value), float(diff))
        changes = sample_changes(_sample(base, qid), _sample(new, qid))
        rows += [(*values, *change) for change in changes] or [(*values, None, None, None, None, None, None,
                                                                 UNCHANGED)]
    columns = list(zip(*rows)) if rows else [()] * len(COLUMNS)
    kinds = dict.fromkeys(COLUMNS, object) | {"base_value": float, "new_value": float, "difference": float,
                                              "claim": "Int64"}
    return pd.DataFrame({name: pd.Series(list(values), dtype=kinds[name]) for name, values in zip(COLUMNS, columns)})


def sample_changes(base: Sample, new: Sample) -> list[tuple]:
    """The labels that differ between two runs' Samples of one query, in :func:`claim_changes`'
    order: ``(claim, claim_text, kind, passage, base_label, new_label, change)`` each."""
    out = []
    base_docs, new_docs, names = _passage_keys(base, new)
    docs = list(dict.fromkeys([*base_docs, *new_docs]))
    for side in SIDES:
        field, vector, grid, other = side
        base_claims, new_claims = getattr(base, field), getattr(new, field)
        pairs = _matched(base_claims, new_claims)
        for j, i in pairs:  # j: the claim in new (None: removed), i: in base (None: added)
            claim = new_claims[j] if j is not None else base_claims[i]
            number = j if j is not None else i
            b, n = _label(base, vector, i), _label(new, vector, j)
            if i is None or j is None:
                out += _one_sided(new if i is None else base, i is None, claim, number, side, b, n)
                continue
            if b != n:
                out.append((number, claim.text, vector, None, _word(b), _word(n),
                            f"{WORDS[b]} → {WORDS[n]}, by {other}"))
            for doc in docs:
                b = _passage_label(base, grid, i, base_docs.get(doc))
                n = _passage_label(new, grid, j, new_docs.get(doc))
                if b == n or (b is NO_LABEL and n in QUIET) or (n is NO_LABEL and b in QUIET):
                    continue
                said_b = NOT_RETRIEVED if doc not in base_docs else WORDS[b]
                said_n = NOT_RETRIEVED if doc not in new_docs else WORDS[n]
                out.append((number, claim.text, grid, names[doc][0], _word(b), _word(n),
                            f"{said_b} → {said_n}, by passage {names[doc][1]}"))
    return out


def _one_sided(sample: Sample, added: bool, claim, number: int, side: tuple, b, n) -> list[tuple]:
    """The rows of a claim in one run only (``sample``'s): its label against the other answer
    (where the run has such labels), then each passage that entails or contradicts it there;
    with neither, one row that says it was added or removed (its labels None)."""
    _, vector, grid, other = side
    said, was = ("added", "") if added else ("removed", "was ")
    out = []
    if getattr(sample, vector) is not None:
        code = n if added else b
        out.append((number, claim.text, vector, None, _word(b), _word(n), f"{said} ({was}{WORDS[code]} by {other})"))
    for doc, k in _doc_ids(sample).items():
        code = _passage_label(sample, grid, number, k)
        if code in (ENTAILED, CONTRADICTED):
            word = _word(code)
            out.append((number, claim.text, grid, doc, None if added else word, word if added else None,
                        f"{said} ({was}{WORDS[code]} by passage {doc})"))
    return out or [(number, claim.text, vector, None, None, None, said)]


def _matched(base_claims, new_claims) -> list[tuple[int | None, int | None]]:
    """(new index, base index) pairs: each new claim with the base claim of the same normalised
    text (the k-th of a text with the k-th), None where there is none; then the removed base claims."""
    waiting: dict[str, list[int]] = {}
    for i, c in enumerate(base_claims):
        waiting.setdefault(normalised(c.text), []).append(i)
    for queue in waiting.values():
        queue.reverse()  # popped from the end: the first first
    pairs = []
    for j, c in enumerate(new_claims):
        queue = waiting.get(normalised(c.text))
        pairs.append((j, queue.pop() if queue else None))
    taken = {i for _, i in pairs if i is not None}
    return pairs + [(None, i) for i in range(len(base_claims)) if i not in taken]


def _label(sample: Sample, matrix: str, claim: int | None):
    """The claim's label code in ``matrix`` (a vector), or NO_LABEL."""
    labels = getattr(sample, matrix)
    return NO_LABEL if claim is None or labels is None else int(labels[claim])


def _passage_label(sample: Sample, matrix: str, claim: int, passage: int | None):
    """The claim's label code by passage ``passage`` in ``matrix`` (a grid), or NO_LABEL."""
    labels = getattr(sample, matrix)
    return NO_LABEL if passage is None or labels is None else int(labels[claim, passage])


def _passage_keys(base: Sample, new: Sample) -> tuple[dict, dict, dict]:
    """Each run's passages by a key that means the same passage in both: its doc_id, except where
    one doc_id holds different texts in the two runs (passages given without doc_ids are named by
    position, P1, P2, ..., so P3 may be another passage after retrieval changed): those passages are
    keyed by their text instead, and matched with the other run's passage of that text whatever its
    name. Returns (base key -> position, new key -> position, key -> (doc_id, its name in words))."""
    base_docs, new_docs = _doc_ids(base), _doc_ids(new)
    texts = {side: {doc: " ".join(sample.passages[k].text.split()) for doc, k in docs.items()}
             for side, sample, docs in (("base", base, base_docs), ("new", new, new_docs))}
    clash = {doc for doc in base_docs.keys() & new_docs.keys() if texts["base"][doc] != texts["new"][doc]}
    if not clash:
        return base_docs, new_docs, {doc: (doc, doc) for doc in {**base_docs, **new_docs}}
    moved = {texts[side][doc] for side in texts for doc in clash}  # a passage holding one is keyed by text too
    keyed, names = {}, {}
    for side, docs in (("base", base_docs), ("new", new_docs)):
        keyed[side] = {}
        for doc, k in docs.items():
            key = ("text", texts[side][doc]) if doc in clash or texts[side][doc] in moved else doc
            keyed[side].setdefault(key, k)
            names.setdefault(key, {})[side] = doc
    said = {}
    for key, by_side in names.items():
        doc = by_side.get("new", by_side.get("base"))
        other = by_side.get("base")
        said[key] = (doc, doc if other in (None, doc) or "new" not in by_side else f"{doc} ({other} in the base run)")
    return keyed["base"], keyed["new"], said


def _doc_ids(sample: Sample) -> dict[str, int]:
    """Each retrieved doc_id's first position in the sample's passages."""
    out: dict[str, int] = {}
    for k, p in enumerate(sample.passages):
        out.setdefault(p.doc_id, k)
    return out


def _word(code) -> str | None:
    return None if code is NO_LABEL else LABELS[code]


def _sample(scores: Scores, query_id) -> Sample:
    return scores.batch.samples[scores.sample_index(str(query_id))]


def _scores(run, name: str) -> Scores:
    """A run's Scores (a RunTable's), or TypeError."""
    if isinstance(run, RunTable):
        run = run.scores
    if not isinstance(run, Scores):
        raise TypeError(f"{name} must be a run's Scores (rw.evaluate(...)) or RunTable, not {type(run).__name__}")
    return run


def _top(top) -> int:
    if isinstance(top, bool) or not isinstance(top, numbers.Integral) or top < 1:
        raise ValueError(f"top must be a whole number ≥ 1, not {top!r:.80}")
    return int(top)
