"""Reading model answers: JSON found in free text, claims lists and label lists, strictly checked."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .claims import TRIPLE_KEYS
from .errors import AnswerParseError
from .results import Claim

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_REASONING = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.DOTALL | re.IGNORECASE)
_REASONING_END = re.compile(r"^.*?</(?:think|thinking|reasoning)>", re.DOTALL | re.IGNORECASE)

ENTAILMENT_SYNONYMS = {
    "entailment": "Entailment",
    "entailed": "Entailment",
    "entails": "Entailment",
    "supported": "Entailment",
    "neutral": "Neutral",
    "contradiction": "Contradiction",
    "contradicted": "Contradiction",
    "contradicts": "Contradiction",
}
IMPORTANCE_SYNONYMS = {"required": "REQUIRED", "optional": "OPTIONAL"}
_MISSING = object()


def final_answer(content: str) -> str:
    """``content`` without reasoning: ``<think>…</think>`` (or ``thinking``/``reasoning``) blocks, and
    everything up to a closing tag whose opening tag the server left out."""
    return _REASONING_END.sub("", _REASONING.sub("", content)).strip()


def find_json(content: str) -> Any:
    """The final answer's JSON: the whole text, else its last fenced block, else the last JSON value
    in its prose (a draft written before the answer does not win). Reasoning blocks are ignored."""
    text = final_answer(content)
    candidates = [text] + [m.group(1).strip() for m in reversed(list(_FENCE.finditer(text)))]
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except ValueError:
            pass
    decoder = json.JSONDecoder()
    found, start = _MISSING, 0
    while start < len(text):
        if text[start] in "[{":
            try:
                found, end = decoder.raw_decode(text, start)
                start = end
                continue
            except ValueError:
                pass
        start += 1
    if found is _MISSING:
        raise AnswerParseError(f"no JSON in the answer: {_snippet(content)}")
    return found


def _unwrap(value: Any, keys: tuple[str, ...]) -> Any:
    """``{"claims": [...]}`` style wrappers → the list inside."""
    if isinstance(value, Mapping):
        for key in keys:
            if key in value:
                return value[key]
        if len(value) == 1:
            return next(iter(value.values()))
    return value


def parse_claims(content: str, text: str = "") -> list[Claim]:
    """A list of claims: objects with subject/predicate/object, or 3-item lists. Any other item fails,
    and so does an empty list for a ``text`` that is not blank (a non-empty text states something)."""
    value = _unwrap(find_json(content), ("claims", "triples", "triplets"))
    if not isinstance(value, list):
        raise AnswerParseError(f"expected a JSON list of claims, got {type(value).__name__}")
    claims: list[Claim] = []
    for item in value:
        if isinstance(item, Mapping) and all(k in item for k in TRIPLE_KEYS):
            parts = tuple(item[k] for k in TRIPLE_KEYS)
        elif isinstance(item, Sequence) and not isinstance(item, str) and len(item) == 3:
            parts = tuple(item)
        else:
            raise AnswerParseError(f"not a subject-predicate-object claim: {_snippet(json.dumps(item))}")
        if any(p is None or isinstance(p, (Mapping, list)) for p in parts):
            raise AnswerParseError(f"claim parts must be text: {_snippet(json.dumps(item))}")
        subject, predicate, obj = (str(p).strip() for p in parts)
        claims.append({"subject": subject, "predicate": predicate, "object": obj})
    if not claims and text.strip():
        raise AnswerParseError("no claims extracted from a text that is not blank")
    return claims


def parse_labels(content: str, n: int, synonyms: Mapping[str, str]) -> list[str]:
    """Exactly ``n`` labels, each one of ``synonyms`` (case-insensitive), in order.

    Accepts a list of strings, a list of objects with a ``label`` key, or such a list wrapped in an
    object (``{"labels": [...]}``). A wrong count or an unknown label fails: nothing is guessed.
    """
    value = _unwrap(find_json(content), ("labels", "results", "answers"))
    if n == 1 and isinstance(value, (str, Mapping)):
        value = [value]
    if not isinstance(value, list):
        raise AnswerParseError(f"expected a JSON list of labels, got {type(value).__name__}")
    if len(value) != n:
        raise AnswerParseError(f"expected {n} labels, got {len(value)}")
    labels = []
    for item in value:
        raw = item.get("label") if isinstance(item, Mapping) else item
        label = synonyms.get(str(raw).strip().strip(".").lower()) if isinstance(raw, str) else None
        if label is None:
            raise AnswerParseError(f"unknown label {_snippet(json.dumps(raw))}")
        labels.append(label)
    return labels


def _snippet(text: str, limit: int = 120) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
