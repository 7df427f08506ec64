"""``PrecomputedJudge``: answers from claims and labels given in advance (nothing is computed)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Optional, Union

from ..model import ENTAILMENT, NEUTRAL
from .base import BaseJudge, CallOutcome
from .claims import ClaimLike, Reference, claim_text, reference_text
from .fill import SIDES
from .jobs import ExtractJob

_CONFLICT: Any = type("Conflict", (), {"__repr__": lambda self: "CONFLICT"})()

LabelKey = Union[str, tuple]


def _entailment_label(value: Any) -> Any:
    """Booleans as labels: True → "Entailment", False → "Neutral"; strings unchanged."""
    if value is True:
        return ENTAILMENT
    if value is False:
        return NEUTRAL
    return value


class PrecomputedJudge(BaseJudge):
    """Looks answers up; anything not given is unjudged (None), never guessed.

    - ``claims``: text → its claims (the question is not part of the key);
    - ``checks``: ``(claim text, reference text)`` → "Entailment" | "Neutral" | "Contradiction";
    - ``labels``: ``(question, claim text)`` or ``claim text`` → "REQUIRED" | "OPTIONAL".

    Claim text is ``claim_text(claim)`` ("subject predicate object" for triples). ``from_records``
    builds one from RAGChecker-format results. It has no cache: looking up is already free.
    """

    model = "precomputed"

    def __init__(
        self,
        claims: Optional[Mapping[str, list]] = None,
        checks: Optional[Mapping[tuple[str, str], Any]] = None,
        labels: Optional[Mapping[LabelKey, str]] = None,
        *,
        progress: bool = False,
    ):
        super().__init__(cache=None, progress=progress)
        self.claims: dict[str, Any] = dict(claims or {})
        self.checks: dict[tuple[str, str], Any] = {k: _entailment_label(v) for k, v in (checks or {}).items()}
        self.labels: dict[LabelKey, Any] = {k: str(v).upper() for k, v in (labels or {}).items()}

    def __repr__(self) -> str:
        return (
            f"PrecomputedJudge({len(self.claims)} claim lists, {len(self.checks)} checks, "
            f"{len(self.labels)} labels)"
        )

    @classmethod
    def from_records(cls, records: Iterable[Mapping[str, Any]]) -> "PrecomputedJudge":
        """Collect the claims, label matrices and claim labels present in RAGChecker-format records.

        A key given two different answers (e.g. the same claim and passage in two samples) is
        answered with None ("conflicting precomputed answers").
        """
        judge = cls()
        for record in records:
            query = str(record.get("query") or "")
            passages = [reference_text(p) for p in record.get("retrieved_context") or []]
            for side in SIDES:
                claims = record.get(side.claims)
                if claims is None:
                    continue
                if record.get(side.text) is not None:
                    judge._add(judge.claims, str(record[side.text]), list(claims))
                for claim, label in zip(claims, record.get(side.labels) or []):
                    if label is not None:
                        judge._add(judge.labels, (query, claim_text(claim)), str(label).upper())
                against = record.get(side.against)
                for claim, label in zip(claims, record.get(side.matrix) or []):
                    if against is not None and label is not None:
                        judge._add(judge.checks, (claim_text(claim), str(against)), _entailment_label(label))
                for claim, row in zip(claims, record.get(side.retrieved) or []):
                    for passage, label in zip(passages, row or []):
                        if label is not None:
                            judge._add(judge.checks, (claim_text(claim), passage), _entailment_label(label))
        return judge

    @staticmethod
    def _add(table: dict, key: Any, value: Any) -> None:
        if key in table and table[key] != value:
            table[key] = _CONFLICT
        else:
            table[key] = value

    @staticmethod
    def _look_up(value: Any, what: str) -> tuple[Any, Optional[str]]:
        if value is None:
            return None, f"no precomputed {what}"
        if value is _CONFLICT:
            return None, f"conflicting precomputed {what}"
        return value, None

    async def _extract_call(self, text: str, question: str, instructions: Optional[str]) -> CallOutcome:
        claims, reason = self._look_up(self.claims.get(text), "claims for this text")
        return CallOutcome(None if claims is None else list(claims), reason=reason)

    async def _check_call(self, claims: list[ClaimLike], reference: Reference) -> CallOutcome:
        ref = reference_text(reference)
        labels, reasons = [], {}
        for i, claim in enumerate(claims):
            label, reason = self._look_up(self.checks.get((claim_text(claim), ref)), "label for this claim and reference")
            labels.append(label)
            if reason:
                reasons[i] = reason
        return CallOutcome(labels, item_reasons=reasons)

    def trace_check(self, claim: ClaimLike, reference: Reference) -> tuple[Optional[dict], Optional[str]]:
        """Where the label came from: the input (nothing was judged)."""
        label, reason = self._look_up(self.checks.get((claim_text(claim), reference_text(reference))),
                                      "label for this claim and reference")
        if reason:
            return None, reason
        return self._given(label, "the label came from the input file (given in advance: no judge read the texts)"), None

    def trace_extract(self, job: ExtractJob) -> tuple[Optional[dict], Optional[str]]:
        claims, reason = self._look_up(self.claims.get(job.text), "claims for this text")
        if reason:
            return None, reason
        return self._given(list(claims), "the claims came from the input file (given in advance, not extracted)"), None

    def _given(self, label: Any, note: str) -> dict:
        return {"label": label, "note": note, "model": self.model, "prompt_version": "given in the input"}

    async def _label_call(self, claims: list[ClaimLike], question: str, instructions: Optional[str]) -> CallOutcome:
        labels, reasons = [], {}
        for i, claim in enumerate(claims):
            text = claim_text(claim)
            found = self.labels.get((question, text), self.labels.get(text))
            label, reason = self._look_up(found, "REQUIRED/OPTIONAL label for this claim")
            labels.append(label)
            if reason:
                reasons[i] = reason
        return CallOutcome(labels, item_reasons=reasons)
