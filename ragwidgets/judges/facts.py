"""``FactJudge``: entailment from authored fact IDs, as in the Harbor Museum lesson.

Passage d entails claim c iff c's facts are non-empty and all of them are in d's facts. No text is
read; contradiction is not graded (a claim that is not entailed is "Neutral").
"""

from __future__ import annotations

from typing import Any, Optional

from ..model import ENTAILMENT, NEUTRAL
from .base import BaseJudge, CallOutcome
from .cache import CacheSetting
from .claims import ClaimLike, Reference, claim_facts, claim_importance, claim_text, reference_facts, reference_text
from .errors import JudgeError
from .jobs import ExtractJob


class FactJudge(BaseJudge):
    """Judge by fact IDs: claims are dicts with ``facts``, references are passages with ``facts``.

    ``label_claims`` returns each claim's authored ``label`` (None where it has none). Claims cannot
    be extracted from text: ``extract_claims`` raises ``JudgeError``.
    """

    model = "authored-fact-ids"

    def __init__(self, *, cache: CacheSetting = None, progress: bool = False):
        super().__init__(cache=cache, progress=progress)

    def __repr__(self) -> str:
        return "FactJudge()"

    def claim_input(self, claim: ClaimLike) -> Any:
        return {"text": claim_text(claim), "facts": sorted(claim_facts(claim) or [])}

    def reference_input(self, reference: Reference) -> Any:
        facts = reference_facts(reference)
        return {"text": reference_text(reference), "facts": None if facts is None else sorted(facts)}

    async def _extract_call(self, text: str, question: str, instructions: Optional[str]) -> CallOutcome:
        raise JudgeError("FactJudge cannot extract claims from text: give the claims with their authored facts")

    async def _check_call(self, claims: list[ClaimLike], reference: Reference) -> CallOutcome:
        passage_facts = reference_facts(reference)
        if passage_facts is None:
            return CallOutcome(None, reason="the reference has no authored facts")
        labels, reasons = [], {}
        for i, claim in enumerate(claims):
            facts = claim_facts(claim)
            if facts is None:
                labels.append(None)
                reasons[i] = "the claim has no authored facts"
            else:
                labels.append(ENTAILMENT if facts and set(facts) <= set(passage_facts) else NEUTRAL)
        return CallOutcome(labels, item_reasons=reasons)

    def trace_check(self, claim: ClaimLike, reference: Reference) -> tuple[Optional[dict], Optional[str]]:
        """The fact IDs behind the label, compared again (deterministic: no cache needed)."""
        passage_facts, facts = reference_facts(reference), claim_facts(claim)
        if passage_facts is None:
            label, note = None, "unjudged: the reference has no authored facts"
        elif facts is None:
            label, note = None, "unjudged: the claim has no authored facts"
        else:
            matched = sorted(set(facts) & set(passage_facts))
            missing = sorted(set(facts) - set(passage_facts))
            label = ENTAILMENT if facts and not missing else NEUTRAL
            why = "the claim states no fact" if not facts else "all of its facts are the reference's" \
                if not missing else f"not in the reference: {', '.join(missing)}"
            note = (f"claim facts: {', '.join(sorted(set(facts))) or 'none'}; matched in the reference: "
                    f"{', '.join(matched) or 'none'}; {why}, so {label}")
        return {"label": label, "note": note, "model": self.model, "prompt_version": "authored fact IDs (no prompt)"}, None

    def trace_extract(self, job: ExtractJob) -> tuple[Optional[dict], Optional[str]]:
        return None, "FactJudge extracts no claims: they were given with their authored facts"

    async def _label_call(self, claims: list[ClaimLike], question: str, instructions: Optional[str]) -> CallOutcome:
        labels = [claim_importance(c) for c in claims]
        reasons = {i: "the claim has no authored label" for i, label in enumerate(labels) if label is None}
        return CallOutcome(labels, item_reasons=reasons)
