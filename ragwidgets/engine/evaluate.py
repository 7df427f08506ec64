"""Score many samples at once: label arrays in, values with their fractions out (each value
defined, Undefined or not computable: :mod:`ragwidgets.engine.values`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any
import warnings

import numpy as np

from .._pages import small_pages
from ..errors import InputError, InputWarning
from ..loaders import LoadResult, load_any
from ..model import LABEL_MATRICES
from ..notes import Notes, as_notes
from ..reviews import ReviewProblem, Reviews, as_reviews, warn_problems
from .batch import Batch
from .claims import FLAG_METRICS, claims_frame, write_claims
from .derived import Derived, count_where
from .explain import explain_sample
from .metrics import METRICS, REQUIRED_PREFIX, ragchecker_summary
from .records import ragchecker_record, write_ragchecker
from .reviewed import review_batch
from .sums import mean_over_defined
from .values import DEFINED, NOT_COMPUTABLE, STATUS_CODES, STATUSES, UNDEFINED, Evaluation, Settings, item_space


def _items_in_play(d: Derived, over: str) -> np.ndarray:
    sample, active = item_space(d, over)
    return count_where(sample, active, d.batch.n_samples)


def _score(d: Derived, names: tuple[str, ...], undefined: str) -> Evaluation:
    b = d.batch
    n = b.n_samples
    ev = Evaluation(batch=b, names=names, derived=d)
    work = list(names)
    in_play: dict[str, np.ndarray] = {}  # item kind -> items in play per sample, counted once, shared (read only)

    def items(kind: str) -> np.ndarray:
        if kind not in in_play:
            in_play[kind] = _items_in_play(d, kind)
        return in_play[kind]

    if "f1" in names:  # f1 is computed from its parts, so after them
        work = [m for m in ("precision", "recall") if m not in names] + [m for m in names if m != "f1"] + ["f1"]
    for name in work:
        m = METRICS[name]
        computable = np.ones(n, dtype=bool)
        blocked = np.zeros(n, dtype=bool)  # unjudged labels among the items in play
        for need in m.needs:
            computable &= b.has[need]
            if need in LABEL_MATRICES:
                if need not in ev.unjudged:
                    ev.unjudged[need] = d.unjudged(need)
                blocked |= ev.unjudged[need] > 0
        if name == "f1":
            p, r = ev.value["precision"], ev.value["recall"]
            with np.errstate(invalid="ignore", divide="ignore"):
                value = np.where(p + r > 0, 2 * p * r / (p + r), 0.0)
            value[np.isnan(p) | np.isnan(r)] = np.nan
            num = den = np.zeros(n, dtype=np.int32)
        else:
            sample, active = item_space(d, m.over)
            den_mask = active if m.denominator is None else active & m.denominator(d)
            num_mask = den_mask & m.numerator(d)
            den = items(m.over) if m.denominator is None else count_where(sample, den_mask, n)
            num = count_where(sample, num_mask, n)
            with np.errstate(invalid="ignore", divide="ignore"):
                value = num / den
            value[den == 0] = np.nan
        value[blocked | ~computable] = np.nan
        code = np.isnan(value).astype(np.int8)
        code[~computable] = STATUS_CODES[NOT_COMPUTABLE]
        if undefined == "zero" and m.in_ragchecker:
            zero = code == STATUS_CODES[UNDEFINED]
            for kind in m.zero_unless:
                zero |= items(kind) == 0
            zero &= computable & ~blocked
            value[zero] = 0.0
            code[zero] = STATUS_CODES[DEFINED]
        ev.value[name], ev.numerator[name], ev.denominator[name] = value, num, den
        ev.code[name], ev.status[name] = code, STATUSES[code]
    return ev


def _masks(batch: Batch, mode: str, passage_active, asked: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    psg = np.ones(len(batch.psg_sample), dtype=bool) if passage_active is None else \
        np.asarray(passage_active, dtype=bool)
    if psg.shape != batch.psg_sample.shape:
        raise ValueError(f"passage_active must have one flag per passage ({len(batch.psg_sample)}), "
                         f"got {psg.shape}")
    if mode == "all_claims":
        return np.ones(len(batch.resp_sample), dtype=bool), np.ones(len(batch.gt_sample), dtype=bool), psg
    for kind, required, sample, field_name in (
            ("response", batch.resp_required, batch.resp_sample, "response_claim_labels"),
            ("ground-truth", batch.gt_required, batch.gt_sample, "gt_answer_claim_labels")):
        missing = np.flatnonzero(required < 0)
        if len(missing):
            i = int(sample[missing[0]])
            raise InputError(
                f"mode {asked or mode!r} needs a REQUIRED/OPTIONAL label on every {kind} claim; "
                f"{np.count_nonzero(sample[missing] == i)} claim(s) here have none "
                f"(give '{field_name}' or a 'label' on each claim)",
                sample=f"sample {i} (query_id {batch.query_ids[i]!r})", field=field_name)
    return batch.resp_required == 1, batch.gt_required == 1, psg


def evaluate(data, scores=None, *, mode: str = "all_claims", undefined: str = "null",
             passage_active=None, on_error: str = "raise", reviews=None, notes=None) -> Scores:
    """Score ``data`` (a Batch, Samples, records, a results object, a path or JSON text).

    ``scores``: metric names (None = all). ``mode``: all_claims | required_only |
    required_and_optional (all-claims metrics plus the same on required claims, prefixed
    ``required_``). ``undefined``: "null" (Undefined stays Undefined) or "zero" (ragchecker
    0.1.9's numbers, its empty-case zeros included). ``passage_active``: one flag per passage of
    the batch, for a what-if without some passages. ``on_error``: "raise" at the first bad
    sample, or "report": score the others and list the bad ones in ``Scores.errors``.
    ``reviews``: reviewed labels (a reviews file's path, Reviews, Review objects or dicts, a
    DataFrame: :func:`ragwidgets.reviews.as_reviews`) applied to the samples they name before
    scoring; the result then carries ``reviews``, ``review_problems`` (the reviews that did not
    match, also warned about once) and ``judge_scores`` (the same scoring of the judge's labels).
    ``notes``: failure notes (a notes file's path, Notes, a NoteLog, Note objects or dicts, a
    DataFrame: :func:`ragwidgets.notes.as_notes`), carried as ``notes`` (scores never read them); a
    note naming no sample of the batch, or a claim it does not have, is warned about once.
    (``rw.evaluate`` adds ``engine="dask"``: :func:`ragwidgets.api.evaluate`.)
    """
    settings = Settings(scores, mode, undefined, on_error)
    names = settings.names
    errors = []
    if isinstance(data, Batch):
        batch = data
    else:
        loaded = load_any(data, on_error=on_error)
        errors = loaded.errors
        if errors and not loaded.samples:
            raise InputError(f"no sample could be scored; the first error: {errors[0]}")
        batch = batch_of(loaded)
    judged = _scores(batch, names, mode, undefined, passage_active, errors)
    if not isinstance(data, Batch):
        judged.external, judged.external_tool = loaded.external, loaded.external_tool
    if notes is not None:
        judged.notes = _checked_notes(batch, notes)
    if reviews is None:
        return judged
    reviews = as_reviews(reviews)
    reviewed = review_batch(batch, reviews)
    warn_problems(reviewed.problems)
    out = _scores(reviewed.batch, names, mode, undefined, passage_active, errors)
    out.reviews, out.review_problems, out.judge_scores, out.review_cells = (
        reviews, reviewed.problems, judged, reviewed.cells)
    out.external, out.external_tool, out.notes = judged.external, judged.external_tool, judged.notes
    return out


def _checked_notes(batch: Batch, notes) -> Notes:
    """``notes`` as Notes, with one InputWarning for those naming no sample of ``batch``, a response
    claim its sample does not have, or a claim whose text is no longer the one noted (its
    ``claim_text``: the claims were extracted again); all kept (a later run may have them)."""
    notes = as_notes(notes)
    position = {qid: i for i, qid in enumerate(batch.query_ids)}
    claims = np.diff(batch.resp_offset)
    stray = []
    for n in notes:
        i = position.get(n.query_id)
        if i is None:
            stray.append((n, "no such sample"))
        elif n.claim is not None and n.claim >= claims[i]:
            stray.append((n, f"no response claim {n.claim + 1}"))
        elif n.claim_text is not None and batch.samples[i].response_claims[n.claim].text != n.claim_text:
            stray.append((n, f"response claim {n.claim + 1}'s text is no longer the one noted"))
    if stray:
        first, where = stray[0]
        warnings.warn(f"{len(stray)} note(s) name no sample or claim of this run; the first: query_id "
                      f"{first.query_id!r:.80} ({where})", InputWarning, stacklevel=3)
    return notes


def _scores(batch: Batch, names: tuple[str, ...], mode: str, undefined: str, passage_active,
            errors: list[InputError]) -> Scores:
    with small_pages():  # at 1M samples, hundreds of MB of fresh per-entry arrays
        if mode == "required_and_optional":
            required = _score(Derived(batch, *_masks(batch, "required_only", passage_active, mode)), names, undefined)
            required.prefix = REQUIRED_PREFIX
            parts = [_score(Derived(batch, *_masks(batch, "all_claims", passage_active)), names, undefined), required]
        else:
            parts = [_score(Derived(batch, *_masks(batch, mode, passage_active)), names, undefined)]
    return Scores(batch=batch, parts=parts, mode=mode, undefined=undefined, errors=errors)


def batch_of(loaded: LoadResult) -> Batch:
    """The Batch of loaded samples (straight from the label arrays when the fast path read them)."""
    return Batch.from_flat(loaded.flat) if loaded.flat is not None else Batch.from_samples(loaded.samples)


@dataclass
class Scores:
    """The result of :func:`evaluate`: one Evaluation per claim set (two in required_and_optional)."""

    batch: Batch
    parts: list[Evaluation]
    mode: str
    undefined: str
    errors: list[InputError] = field(default_factory=list)  # samples skipped (on_error="report")
    reviews: Reviews | None = None  # the reviews applied (evaluate(..., reviews=)); None: the judge's labels
    review_problems: list[ReviewProblem] = field(default_factory=list)  # reviews that did not match
    judge_scores: Scores | None = None  # the same scoring of the judge's labels, when reviewed
    review_cells: dict | None = None  # label matrix -> mask over the batch's flat array: True where reviewed
    external: Any = None  # other tools' numbers read with a table run (a DataFrame by query_id): never scored
    external_tool: str = ""  # the tool that named them ("ragas", "phoenix", "external")
    notes: Notes | None = None  # failure notes read with the run (evaluate(..., notes=)); never scored

    @property
    def samples(self):
        """The scored Samples, in order (built on demand for files read by the fast path)."""
        return self.batch.samples

    @property
    def names(self) -> list[str]:
        """Every reported metric key, ``required_`` prefix included."""
        return [name for part in self.parts for name, *_ in part.columns()]

    @property
    def frame(self):
        """Samples x metrics (a pandas DataFrame); NaN = Undefined or not computable (see :meth:`reasons`)."""
        import pandas as pd
        return pd.concat([part.frame for part in self.parts], axis=1)

    def _columns(self):
        for part in self.parts:
            yield from part.columns()

    @cached_property
    def _positions(self) -> dict[str, int]:
        return {qid: i for i, qid in enumerate(self.batch.query_ids)}

    def sample_index(self, key) -> int:
        """Index of a sample given its position or its query_id."""
        if isinstance(key, str):
            if key not in self._positions:
                raise KeyError(f"no sample with query_id {key!r}")
            return self._positions[key]
        n = self.batch.n_samples
        if not -n <= key < n:
            raise IndexError(f"sample {key} out of range: {n} samples")
        return int(key) % n

    def metrics(self, key) -> dict[str, float | None]:
        """One sample's computable metrics: a float, or None for Undefined."""
        i = self.sample_index(key)
        return {name: (None if status[i] == UNDEFINED else float(value[i]))
                for name, value, status, _ in self._columns() if status[i] != NOT_COMPUTABLE}

    def reasons(self, key) -> dict[str, str]:
        """Why each of one sample's metrics is Undefined or not computable."""
        i = self.sample_index(key)
        return {shown: part.reason_of(name, i) for part in self.parts
                for shown, _, status, name in part.columns() if status[i] != DEFINED}

    def records(self) -> list[dict]:
        """``[{"query_id", "metrics": {name: float | None}}]`` (not-computable metrics left out)."""
        return [{"query_id": qid, "metrics": self.metrics(i)} for i, qid in enumerate(self.batch.query_ids)]

    def aggregate(self) -> dict[str, dict]:
        """Per metric: mean over defined samples (exact, rounded once: :mod:`ragwidgets.engine.sums`;
        None if none) and how many were defined, Undefined and not computable. Undefined samples
        are counted, never averaged as 0."""
        out = {}
        for part in self.parts:
            for shown, value, _, name in part.columns():
                counts = np.bincount(part.code[name], minlength=3)
                out[shown] = {
                    "mean": mean_over_defined(value, part.code[name] == 0)[0],
                    "defined": int(counts[0]), "undefined": int(counts[1]), "not_computable": int(counts[2]),
                }
        return out

    def ragchecker_summary(self) -> dict[str, dict[str, float | None]]:
        """RAGChecker's report: mean over defined samples × 100, one decimal, by group."""
        return ragchecker_summary(self.aggregate(), tuple(dict.fromkeys(part.prefix for part in self.parts)))

    def explain(self, key, part: int = 0):
        """The derivation of one sample's values: see :mod:`ragwidgets.engine.explain`."""
        return explain_sample(self.parts[part], self.sample_index(key))

    def claims(self):
        """One row per claim with every label and its source (judge / reviewer) and the engine's
        per-claim facts (a pandas DataFrame): see :mod:`ragwidgets.engine.claims`."""
        part = self.parts[0]
        flags = _score(part.derived, FLAG_METRICS, "null")
        judge = self.judge_scores.batch if self.judge_scores is not None else self.batch
        return claims_frame(self.batch, part.derived, flags.code, judge, self.review_cells)

    def to_claims(self, path) -> int:
        """Write :meth:`claims` whole as CSV, Parquet or JSONL, by ``path``'s suffix; the rows written."""
        frame = self.claims()
        write_claims(frame, path)
        return len(frame)

    def to_ragchecker(self) -> dict:
        """``{"results": [...], "metrics": ...}``: every sample in RAGChecker's format (its reviewed
        labels where reviewed) with its metrics, and RAGChecker's grouped summary
        (:mod:`ragwidgets.engine.records`)."""
        return {"results": [ragchecker_record(sample, self.metrics(i)) for i, sample in enumerate(self.samples)],
                "metrics": self.ragchecker_summary()}

    def to_ragchecker_json(self, path=None, *, indent: int | None = 2) -> str:
        """:meth:`to_ragchecker` as JSON text; written whole to ``path`` when given."""
        return write_ragchecker(self.to_ragchecker(), path, indent)

    def reviewed(self, reviews) -> Scores:
        """The same scoring with ``reviews`` applied to the judge's labels (those of
        ``judge_scores`` when these scores are reviewed already: reviews replace, never stack)."""
        base = self.judge_scores or self
        part = base.parts[0]
        out = evaluate(base.batch, part.names, mode=self.mode, undefined=self.undefined,
                       passage_active=part.derived.psg_active, reviews=reviews)
        out.errors = self.errors
        out.judge_scores.errors = self.errors
        out.external, out.external_tool, out.notes = base.external, base.external_tool, self.notes
        return out
