"""Filled records → score values and the reason behind every NaN, through the engine.

The all-claims scores are one ``evaluate`` over every record. The required-claims scores
(``required_only``, and the ``required_`` half of ``required_and_optional``) are evaluated per
group of scores that look at the same claim sides, over the records whose claims on those sides
all carry a REQUIRED/OPTIONAL label; a record with an unjudged label gets NaN with the reason
``"k unjudged label(s) in <labels field>"`` for just the scores that need those labels.
A score left NaN because the judge could not extract the claims says so.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine import evaluate
from ..engine.metrics import REQUIRED_PREFIX
from .requirements import SIDE_CLAIMS, SIDE_LABELS, SIDE_MATRICES, score_columns, sides_of

_FIELDS_OF_SIDE = {side: (SIDE_CLAIMS[side], *SIDE_MATRICES[side], SIDE_LABELS[side]) for side in SIDE_CLAIMS}


def engine_record(record: dict, sides: set[str], labels: bool) -> dict:
    """The record with only the given sides' claims and labels (importance labels if ``labels``)."""
    dropped = {f for side, names in _FIELDS_OF_SIDE.items() if side not in sides for f in names}
    if not labels:
        dropped |= set(SIDE_LABELS.values())
    return {k: v for k, v in record.items() if k not in dropped and k != "unjudged"}


def _unlabelled(record: dict, side: str) -> int | None:
    """How many of the side's claims lack an importance label (None when the claims are unknown)."""
    claims = record.get(SIDE_CLAIMS[side])
    if claims is None:
        return None
    labels = record.get(SIDE_LABELS[side]) or [None] * len(claims)
    return sum(label is None for label in labels)


def _extraction_failure(record: dict, name: str) -> str | None:
    """Why the claims a score is about could not be extracted, if that is why it is NaN."""
    for side in sorted(sides_of([name])):
        field = SIDE_CLAIMS[side]
        for note in record.get("unjudged") or []:
            if note.get("field") == field and note.get("index") is None:
                return f"{field} could not be extracted: {note.get('reason')}"
    return None


def _run(records: list[dict], positions: list[int], names: tuple[str, ...], mode: str, shown: dict[str, str],
         values: pd.DataFrame, reasons: list[dict[str, str]], sides: set[str]) -> None:
    """Evaluate ``names`` on the records at ``positions``; write values and reasons under ``shown`` names."""
    if not positions:
        return
    batch = [engine_record(records[p], sides, labels=mode != "all_claims") for p in positions]
    scores = evaluate(batch, names, mode=mode)
    frame = scores.frame
    for name in names:
        values.iloc[positions, values.columns.get_loc(shown[name])] = frame[name].to_numpy(dtype=float)
    for i, p in enumerate(positions):
        computable = scores.metrics(i)
        for name, reason in scores.reasons(i).items():
            if name not in computable:
                reason = _extraction_failure(records[p], name) or reason
            reasons[p][shown[name]] = reason


def score_records(records: list[dict], scores: tuple[str, ...], mode: str) -> tuple[pd.DataFrame, list[dict[str, str]]]:
    """Per-record score values (columns: the reported score names; NaN = Undefined) and NaN reasons."""
    values = pd.DataFrame(np.nan, index=range(len(records)), columns=list(score_columns(scores, mode)))
    reasons: list[dict[str, str]] = [{} for _ in records]
    everyone = list(range(len(records)))
    if mode in ("all_claims", "required_and_optional"):
        _run(records, everyone, scores, "all_claims", {s: s for s in scores}, values, reasons, sides_of(scores))
    if mode == "all_claims":
        return values, reasons
    prefix = REQUIRED_PREFIX if mode == "required_and_optional" else ""
    groups: dict[frozenset, list[str]] = {}
    for name in scores:
        groups.setdefault(frozenset(sides_of([name])), []).append(name)
    for sides, names in groups.items():
        complete = []
        for p in everyone:
            missing = {side: _unlabelled(records[p], side) for side in sorted(sides)}
            if all(n == 0 for n in missing.values()):
                complete.append(p)
                continue
            for name in names:
                reasons[p][prefix + name] = _extraction_failure(records[p], name) or "; ".join(
                    f"{SIDE_CLAIMS[side]} unknown" if n is None else f"{n} unjudged label(s) in {SIDE_LABELS[side]}"
                    for side, n in missing.items() if n != 0)
        _run(records, complete, tuple(names), "required_only", {n: prefix + n for n in names}, values, reasons,
             set(sides))
    return values, reasons

