"""``LexicalJudge``: a deterministic token-overlap baseline. It is not a language model.

Use it for tests, tutorials and as a floor to compare real judges against. It never says
"Contradiction" (it cannot see negation), ignores user instructions, and its claims are sentences
cut into triples by a simple rule, not a reading of the text.
"""

from __future__ import annotations

import re
from typing import Optional

from ..model import ENTAILMENT, NEUTRAL
from .base import BaseJudge, CallOutcome
from .cache import CacheSetting
from .claims import ClaimLike, Reference, claim_text, reference_text
from .jobs import ExtractJob
from .results import ExtractedClaim

STOPWORDS = frozenset(
    """a an the and or but of to in on at by for with from as into about than then that this these those
    it its it's is are was were be been being has have had do does did will would can could should may
    might must shall not no yes there here which who whom whose what when where why how all any some
    each also very more most such only own same so too just over under i you he she we they them his
    her our your their me him us""".split()
)

LINKING_VERBS = frozenset(
    """is are was were has have had contains contain includes include consists consist lies lie flows
    flow runs run opens open closes close costs cost became becomes become remains remain means mean
    makes make gives give uses use requires require""".split()
)

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_TOKEN = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*")


def content_tokens(text: str) -> set[str]:
    """Lower-cased word and number tokens of ``text`` minus stop words."""
    return {t for t in _TOKEN.findall(text.lower()) if t not in STOPWORDS}


def sentence_to_claim(sentence: str) -> ExtractedClaim:
    """Cut a sentence at its first linking verb: words before = subject, verb = predicate, rest = object.

    Without a linking verb (after the first word) the first word is the subject and the second the
    predicate.
    """
    words = sentence.strip().rstrip(".!?").split()
    cut = next((i for i, w in enumerate(words) if i > 0 and w.lower() in LINKING_VERBS), 1)
    return {
        "subject": " ".join(words[:cut]),
        "predicate": " ".join(words[cut : cut + 1]),
        "object": " ".join(words[cut + 1 :]),
    }


class LexicalJudge(BaseJudge):
    """A baseline judge by token overlap: deterministic, not an LLM (see the module docstring).

    - extract: one claim per sentence (``sentence_to_claim``);
    - check: "Entailment" iff at least ``threshold`` of the claim's content tokens occur in the
      reference, else "Neutral"; a claim without content tokens is unjudged (None);
    - label: "REQUIRED" iff the claim shares a content token with the question, else "OPTIONAL";
      unjudged when there is no question.
    """

    def __init__(self, threshold: float = 0.6, *, cache: CacheSetting = None, progress: bool = False):
        if not 0 < threshold <= 1:
            raise ValueError("threshold must be in (0, 1]")
        super().__init__(cache=cache, progress=progress)
        self.threshold = float(threshold)
        self.model = f"lexical-overlap(threshold={self.threshold:g})"

    def __repr__(self) -> str:
        return f"LexicalJudge(threshold={self.threshold:g})"

    async def _extract_call(self, text: str, question: str, instructions: Optional[str]) -> CallOutcome:
        sentences = [s for s in _SENTENCE_END.split(text) if content_tokens(s)]
        return CallOutcome([sentence_to_claim(s) for s in sentences])

    async def _check_call(self, claims: list[ClaimLike], reference: Reference) -> CallOutcome:
        ref_tokens = content_tokens(reference_text(reference))
        labels, reasons = [], {}
        for i, claim in enumerate(claims):
            tokens = content_tokens(claim_text(claim))
            if not tokens:
                labels.append(None)
                reasons[i] = "claim has no content words"
                continue
            overlap = len(tokens & ref_tokens) / len(tokens)
            labels.append(ENTAILMENT if overlap >= self.threshold else NEUTRAL)
        return CallOutcome(labels, item_reasons=reasons)

    def trace_check(self, claim: ClaimLike, reference: Reference) -> tuple[Optional[dict], Optional[str]]:
        """The overlap behind the label, worked out again (deterministic: no cache needed)."""
        tokens = content_tokens(claim_text(claim))
        shared = sorted(tokens & content_tokens(reference_text(reference)))
        if not tokens:
            return self._explained(None, "unjudged: the claim has no content words"), None
        score = len(shared) / len(tokens)
        label = ENTAILMENT if score >= self.threshold else NEUTRAL
        missing = sorted(tokens - set(shared))
        note = (f"{len(shared)} of {len(tokens)} content words of the claim occur in the reference: "
                f"{len(shared)}/{len(tokens)} = {score:.2f} {'≥' if label == ENTAILMENT else '<'} threshold "
                f"{self.threshold:g}, so {label}. Shared: {', '.join(shared) or 'none'}; not found: "
                f"{', '.join(missing) or 'none'}")
        return self._explained(label, note), None

    def trace_extract(self, job: ExtractJob) -> tuple[Optional[dict], Optional[str]]:
        """The rule behind the claims, and the claims it gives."""
        claims = [sentence_to_claim(s) for s in _SENTENCE_END.split(job.text) if content_tokens(s)]
        note = (f"{len(claims)} claim(s): one per sentence with content words, cut at its first linking verb "
                "(words before: subject; the verb: predicate; the rest: object). Not a reading of the text")
        return self._explained(claims, note), None

    def _explained(self, label, note: str) -> dict:
        return {"label": label, "note": note, "model": self.model, "prompt_version": "lexical rule (no prompt)"}

    async def _label_call(self, claims: list[ClaimLike], question: str, instructions: Optional[str]) -> CallOutcome:
        question_tokens = content_tokens(question)
        if not question_tokens:
            return CallOutcome(None, reason="no question to label the claims against")
        return CallOutcome(
            ["REQUIRED" if content_tokens(claim_text(c)) & question_tokens else "OPTIONAL" for c in claims]
        )
