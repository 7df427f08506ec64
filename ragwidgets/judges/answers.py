"""Reading model answers: JSON found in free text, claims lists and label lists, strictly checked."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Optional

from ..model import CONTRADICTION, ENTAILMENT, IMPORTANCE_LABELS, LABEL_SPELLINGS
from .claims import TRIPLE_KEYS
from .errors import AnswerParseError
from .results import ExtractedClaim

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_TAG = r"think|thinking|reasoning|seed:think"  # <think>, <think type="…">, <seed:think> (Seed-OSS), …
_ATTRIBUTE = r"""\s+[\w:-]+=(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+)"""  # name=value, as HTML writes one
_OPENING = (rf"<(?P<tag>{_TAG})(?:{_ATTRIBUTE})*\s*>"
            r"|◁think▷"  # Kimi
            r"|(?P<harmony>(?:<\|start\|>\s*assistant\s*)?<\|channel\|>\s*analysis\b)")  # OpenAI's harmony, sent raw
_REASONING_OPEN = re.compile(_OPENING, re.IGNORECASE)
_REASONING_CLOSE = re.compile(rf"</(?:{_TAG})\s*>|◁/think▷", re.IGNORECASE)
_HARMONY_END = re.compile(r"<\|end\|>", re.IGNORECASE)
_OPENING_OR_QUOTE = re.compile(rf'\\.|"|{_OPENING}', re.IGNORECASE | re.DOTALL)  # an escape, a quote, an opening
_SPACE = re.compile(r"\s*")
_JSON_START = re.compile(r"[\[{]")
SCAN_BUDGET = 1 << 24  # characters that the JSON values failing to parse in one answer may cost to try, in all
_DIGITS = re.compile(r"\s*[0-9]+\s*")
NUMBER_KEYS = ("claim", "claim_number", "number", "id")  # where a numbered label says which claim it is

ENTAILMENT_SYNONYMS = {  # a model's word (lower case) -> the label's spelling
    **{spelling.lower(): spelling for spelling in LABEL_SPELLINGS},
    "entailed": ENTAILMENT,
    "entails": ENTAILMENT,
    "supported": ENTAILMENT,
    "contradicted": CONTRADICTION,
    "contradicts": CONTRADICTION,
}
IMPORTANCE_SYNONYMS = {label.lower(): label for label in IMPORTANCE_LABELS}
_MISSING = object()


def final_answer(content: str) -> str:
    """``content`` without reasoning. Reasoning is: the blocks the reply opens with, one after another
    (``<think>…</think>``, or ``thinking``, ``reasoning``, ``seed:think``, an opening tag with
    ``name=value`` attributes; Kimi's ``◁think▷…◁/think▷``; a raw harmony ``<|channel|>analysis…<|end|>``),
    and everything up to the last closing tag whose opening tag the server left out. A reply that is
    one JSON value is all answer: a tag inside its strings is text. An opening tag later in the reply,
    outside a quoted string, is a block left open too. A block left open (a reply that ended while
    reasoning, whatever its finish reason) holds no answer: ``AnswerParseError``. Read by linear
    scans, so a long hostile reply costs no more than its length."""
    text = _after_leading_reasoning(content)
    if _is_json(text):
        return text.strip()
    last = None
    for last in _REASONING_CLOSE.finditer(text):
        pass
    if last is not None:
        text = text[last.end() :]
    opened = _bare_opening(text)
    if opened:
        raise _not_closed(opened)
    return text.strip()


def _after_leading_reasoning(content: str) -> str:
    """``content`` after the reasoning blocks it opens with (whitespace before each); one left open
    raises ``AnswerParseError``."""
    at = 0
    while True:
        at = _SPACE.match(content, at).end()
        opened = _REASONING_OPEN.match(content, at)
        if opened is None:
            return content[at:]
        closing = (_HARMONY_END if opened.group("harmony") else _REASONING_CLOSE).search(content, opened.end())
        if closing is None:
            raise _not_closed(opened)
        at = closing.end()


def _bare_opening(text: str) -> Optional[re.Match]:
    """The first opening tag of ``text`` outside a double-quoted string (a JSON string's escapes
    read as such), else None."""
    quoted = False
    for found in _OPENING_OR_QUOTE.finditer(text):
        if found.group(0) == '"':
            quoted = not quoted
        elif not quoted and not found.group(0).startswith("\\"):
            return found
    return None


def _is_json(text: str) -> bool:
    """Whether ``text`` is one JSON value (one nested too deeply to read is not)."""
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def _not_closed(opened: re.Match) -> AnswerParseError:
    name = f"<{opened.group('tag').lower()}>" if opened.group("tag") else " ".join(opened.group(0).split())
    return AnswerParseError(f"the {name} block is not closed: the reply ended in its reasoning, before an answer")


def find_json(content: str) -> Any:
    """The final answer's JSON: the whole text, else its last fenced block, else the last JSON value
    in its prose (a draft written before the answer does not win). Reasoning blocks are ignored.
    JSON nested deeper than Python's recursion limit is no answer (``AnswerParseError``), nor is prose
    whose unfinished JSON values cost more than ``SCAN_BUDGET`` characters to try (a failed parse
    reads the text up to where it failed, from its start: its error counts the lines before)."""
    text = final_answer(content)
    candidates = [text] + [m.group(1).strip() for m in reversed(list(_FENCE.finditer(text)))]
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except (ValueError, RecursionError):
            pass
    decoder = json.JSONDecoder()
    found, budget = _MISSING, SCAN_BUDGET
    opened = _JSON_START.search(text)
    while opened:
        start = opened.start() + 1
        try:
            found, start = decoder.raw_decode(text, opened.start())
        except json.JSONDecodeError as err:
            budget -= err.pos
            if budget < 0:
                raise AnswerParseError(f"too many unfinished JSON values in the answer to read: {_snippet(content)}")
        except RecursionError:
            raise AnswerParseError(f"the answer's JSON is nested too deeply to read: {_snippet(content)}") from None
        opened = _JSON_START.search(text, start)
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


def parse_claims(content: str, text: str = "") -> list[ExtractedClaim]:
    """A list of claims: objects with subject/predicate/object, or 3-item lists. Any other item fails,
    and so does an empty list for a ``text`` that is not blank (a non-empty text states something)."""
    value = _unwrap(find_json(content), ("claims", "triples", "triplets"))
    if not isinstance(value, list):
        raise AnswerParseError(f"expected a JSON list of claims, got {type(value).__name__}")
    claims: list[ExtractedClaim] = []
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


def _number(item: Any) -> Optional[int]:
    """The claim number a label object gives (``{"claim": 2, "label": …}``, digits in a string too)."""
    if isinstance(item, Mapping):
        for key in NUMBER_KEYS:
            raw = item.get(key)
            if isinstance(raw, int) and not isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and _DIGITS.fullmatch(raw):
                return int(raw)
    return None


def _numbered(value: Any) -> bool:
    """``{"1": label, "2": label}``: labels keyed by claim number."""
    return isinstance(value, Mapping) and bool(value) and all(_DIGITS.fullmatch(str(k)) for k in value)


def parse_labels(content: str, n: int, synonyms: Mapping[str, str]) -> list[str]:
    """Exactly ``n`` labels, each one of ``synonyms`` (case-insensitive), in claim order.

    Accepts a list of strings, a list of objects with a ``label`` key, or such a list wrapped in an
    object (``{"labels": [...]}``). Labels that give their claim's number (``{"claim": 2, "label":
    …}``, or an object keyed by number) are put in the order of those numbers, which must be 1 to
    ``n`` once each. A wrong count, a wrong number or an unknown label fails: nothing is guessed.
    """
    value = find_json(content)
    if not _numbered(value):
        value = _unwrap(value, ("labels", "results", "answers"))
    if _numbered(value):
        pairs = [(int(k), item) for k, item in value.items()]
    else:
        if n == 1 and isinstance(value, (str, Mapping)):
            value = [value]
        if not isinstance(value, list):
            raise AnswerParseError(f"expected a JSON list of labels, got {type(value).__name__}")
        pairs = [(_number(item), item) for item in value]
    if len(pairs) != n:
        raise AnswerParseError(f"expected {n} labels, got {len(pairs)}")
    numbers = [k for k, _ in pairs]
    if any(k is not None for k in numbers):
        if None in numbers or sorted(numbers) != list(range(1, n + 1)):
            shown = ", ".join("none" if k is None else str(k) for k in numbers)
            raise AnswerParseError(f"the labels are numbered {_snippet(shown)}, not 1 to {n} once each")
        pairs.sort(key=lambda pair: pair[0])
    labels = []
    for _, item in pairs:
        raw = item.get("label") if isinstance(item, Mapping) else item
        label = synonyms.get(str(raw).strip().strip(".").lower()) if isinstance(raw, str) else None
        if label is None:
            raise AnswerParseError(f"unknown label {_snippet(json.dumps(raw))}")
        labels.append(label)
    return labels


def _snippet(text: str, limit: int = 120) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
