"""Claims and references in the shapes users bring them: triples, dicts, plain strings."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Union

TRIPLE_KEYS = ("subject", "predicate", "object")

ClaimLike = Union[Mapping[str, Any], Sequence[str], str]
"""A claim as ``{"subject","predicate","object"}`` (optionally ``text``, ``facts``), a
``[subject, predicate, object]`` list, or a plain string."""

Reference = Union[str, Mapping[str, Any]]
"""A reference text, or a passage dict with ``text`` (and optionally ``doc_id``, ``facts``)."""


def claim_text(claim: ClaimLike) -> str:
    """The claim as one line of text: ``"subject predicate object"`` for triples."""
    if isinstance(claim, str):
        return claim.strip()
    if isinstance(claim, Mapping):
        if claim.get("text"):
            return str(claim["text"]).strip()
        parts = [claim.get(k) for k in TRIPLE_KEYS]
        return " ".join(str(p).strip() for p in parts if p not in (None, "")).strip()
    return " ".join(str(p).strip() for p in claim if p not in (None, "")).strip()


def claim_triple(claim: Any) -> Any:
    """A ``{subject, predicate, object}`` dict as RAGChecker's ``[subject, predicate, object]``; others unchanged."""
    if isinstance(claim, Mapping) and set(claim) == set(TRIPLE_KEYS):
        return [claim[k] for k in TRIPLE_KEYS]
    return claim


def claim_dict(claim: Any) -> Any:
    """A ``[subject, predicate, object]`` list of strings as a ``{subject, predicate, object}`` dict (how RagChecker configurations write claims)."""
    if isinstance(claim, list) and len(claim) == 3 and all(isinstance(v, str) for v in claim):
        return dict(zip(TRIPLE_KEYS, claim))
    return claim


def claim_facts(claim: ClaimLike) -> list[str] | None:
    """The authored fact IDs of a claim, or None when the claim carries none."""
    if isinstance(claim, Mapping) and claim.get("facts") is not None:
        return [str(f) for f in claim["facts"]]
    return None


def claim_importance(claim: ClaimLike) -> str | None:
    """An authored ``label`` of a claim dict ("REQUIRED"/"OPTIONAL"), or None."""
    if isinstance(claim, Mapping) and claim.get("label"):
        label = str(claim["label"]).upper()
        return label if label in ("REQUIRED", "OPTIONAL") else None
    return None


def reference_text(reference: Reference) -> str:
    """The text of a reference or passage."""
    if isinstance(reference, Mapping):
        return str(reference.get("text") or "")
    return str(reference)


def reference_facts(reference: Reference) -> list[str] | None:
    """The authored fact IDs of a passage, or None when it carries none."""
    if isinstance(reference, Mapping) and reference.get("facts") is not None:
        return [str(f) for f in reference["facts"]]
    return None


class AssumedClaim(str):
    """A sentence standing in for a claim not extracted yet (in a dry run): no cache holds a
    judgement about it, so it is never looked up."""


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (split after . ! ?), none for a blank text: the claims a dry run
    assumes for a text whose claims are not extracted yet."""
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s.strip()]
