"""Why a judge gave a label: the trace of the call behind it, looked up without calling the model.

``find_trace(judge, sample, kind, claim, doc_id)`` builds the cache key ``fill_labels`` built for
that label (the same claim text and reference; for a run judged several times, the key of the
repeat whose label the record shows, or of the ``repeat`` asked for: each repeat keeps the trace of
its own reply) and reads the trace the judge kept beside the answer: the messages sent, the raw reply, model, prompt version, time and finish reason. Offline
judges explain themselves from the inputs instead (no cache needed): the lexical judge its word
overlap against its threshold, the fact judge the fact IDs that matched, the precomputed judge that
the label was given in the input. ``trace_of`` is ``find_trace(...).trace``.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple, Optional

from ..errors import InputError
from ..model import Claim, Passage, Sample, label_code
from .claims import claim_text
from .fill import SIDES, _answer_reference
from .jobs import ExtractJob
from .repeats import REPEATS_FIELD, repeat_of

KINDS = ("answer2response", "response2answer", "retrieved2response", "retrieved2answer", "extract")
SIDE_OF_KIND = {"answer2response": 0, "retrieved2response": 0, "response2answer": 1, "retrieved2answer": 1}
EXTRACT_SIDES = {"response": 0, "gt_answer": 1}


@dataclass(frozen=True)
class Trace:
    """One label and why: ``messages`` ({"role", "content"} dicts, as sent) and ``reply`` (the raw
    text, a reasoning block included; ``reasoning``: one the server sent beside it) for an LLM
    judge; ``note`` an offline judge's explanation (or where the label sits in a batched reply).
    ``label``: the judge's answer (for ``extract``: the claims); ``time``: ISO 8601, UTC."""

    kind: str
    claim: Optional[int]
    doc_id: Optional[str]
    label: Any
    messages: tuple = ()
    reply: Optional[str] = None
    model: str = ""
    prompt_version: Optional[str] = None
    time: Optional[str] = None
    finish_reason: Optional[str] = None
    note: Optional[str] = None
    reasoning: Optional[str] = None

    def to_json(self) -> dict[str, Any]:
        """The trace as plain JSON (lists and strings), for a widget."""
        out = asdict(self)
        out["messages"] = [dict(m) for m in self.messages]
        return out

    def _sections(self) -> list[tuple[str, str]]:
        where = f"claim {self.claim}" if self.claim is not None else "all claims"
        head = f"{self.kind}, {where}" + (f", passage {self.doc_id}" if self.doc_id is not None else "")
        label = self.label if isinstance(self.label, str) or self.label is None else json.dumps(self.label)
        about = ", ".join(x for x in (self.model, self.prompt_version, self.time) if x)
        parts = [(f"{head}: {label if label is not None else 'unjudged'}", about)]
        if self.note:
            parts.append(("note", self.note))
        parts += [(str(m.get("role")), str(m.get("content"))) for m in self.messages]
        if self.reasoning is not None:
            parts.append(("reasoning (sent beside the reply)", self.reasoning))
        if self.reply is not None:
            parts.append((f"reply (finish_reason {self.finish_reason or 'not given'})", self.reply))
        return parts

    def __str__(self) -> str:
        (head, about), *rest = self._sections()
        lines = [head + (f" ({about})" if about else "")]
        for title, text in rest:
            lines += [f"--- {title} ---", text]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        (head, about), *rest = self._sections()
        out = [f"<div><b>{html.escape(head)}</b> <small>{html.escape(about)}</small>"]
        for title, text in rest:
            out.append(f"<div><i>{html.escape(title)}</i><pre style='white-space:pre-wrap'>{html.escape(text)}</pre></div>")
        return "".join(out) + "</div>"


class TraceAnswer(NamedTuple):
    """A lookup's answer: the trace, or None and ``reason`` (why there is none)."""

    trace: Optional[Trace]
    reason: Optional[str]


def _claim_like(claim: Claim) -> Any:
    """A model claim as the record ``fill_labels`` read held it (so its text, and key, are the same)."""
    base: Any = list(claim.triple) if claim.triple and claim.text == " ".join(claim.triple) else claim.text
    if claim.facts is not None:
        return {"text": claim_text(base), "facts": list(claim.facts)}
    return base


def _passage(passage: Passage) -> dict[str, Any]:
    out: dict[str, Any] = {"doc_id": passage.doc_id, "text": passage.text}
    if passage.facts is not None:
        out["facts"] = list(passage.facts)
    return out


def sample_record(sample: Sample) -> dict[str, Any]:
    """A ``Sample`` as the RAGChecker-format record ``fill_labels`` fills (claims, passages, texts)."""
    record: dict[str, Any] = {
        "query_id": sample.query_id, "query": sample.query, "gt_answer": sample.gt_answer,
        "response": sample.response, "retrieved_context": [_passage(p) for p in sample.passages],
        "response_claims": [_claim_like(c) for c in sample.response_claims],
    }
    if sample.has_gt_claims:
        record["gt_answer_claims"] = [_claim_like(c) for c in sample.gt_claims]
    return record


def find_trace(judge: Any, sample: Any, kind: str, claim: Optional[int] = None, doc_id: Optional[str] = None, *,
               side: str = "response", instructions: Optional[str] = None,
               repeat: Optional[int] = None) -> TraceAnswer:
    """The trace behind one label of ``sample`` (a ``Sample`` or a RAGChecker-format record):
    ``kind`` one of ``KINDS``, ``claim`` the 0-based index in that side's claim list, ``doc_id`` the
    passage for ``retrieved2*``. ``extract``: how ``side``'s claims ("response" or "gt_answer") were
    extracted (``instructions``: the extraction instructions of the fill). ``repeat``: the trace of
    that repeat's answer (see ``judges.repeats``); None: of ``judge``'s own repeat where it is one
    (``repeat_of(judge, r)``), else of the earliest repeat whose label the record shows (from its
    ``label_repeats``; a record without them, such as a ``Sample``: the earliest whose kept trace
    gives the label shown, else the first). No model call."""
    record = sample_record(sample) if isinstance(sample, Sample) else sample
    if not isinstance(record, Mapping):
        raise TypeError(f"sample must be a Sample or a RAGChecker-format record, got {type(sample).__name__}")
    name = f"sample {record.get('query_id')!r}"
    if kind not in KINDS:
        raise InputError(f"unknown label kind {kind!r}; known: {', '.join(KINDS)}", sample=name, field="kind")
    if kind == "extract":
        if side not in EXTRACT_SIDES:
            raise InputError(f"side must be one of {', '.join(EXTRACT_SIDES)}, got {side!r}", sample=name, field="side")
        part = SIDES[EXTRACT_SIDES[side]]
        if not hasattr(judge, "trace_extract"):
            return TraceAnswer(None, f"{type(judge).__name__} keeps no traces")
        job = ExtractJob(str(record.get(part.text) or ""), str(record.get("query") or ""), instructions)
        found, reason = judge.trace_extract(job)
        return _answer(found, reason, kind, claim, None)
    part = SIDES[SIDE_OF_KIND[kind]]
    if not hasattr(judge, "trace_check"):
        return TraceAnswer(None, f"{type(judge).__name__} keeps no traces")
    claims = record.get(part.claims) or []
    if not isinstance(claim, int) or isinstance(claim, bool) or not 0 <= claim < len(claims):
        raise InputError(f"claim {claim!r} is not an index of its {len(claims)} claims", sample=name, field=part.claims)
    if kind.startswith("retrieved"):
        passages = record.get("retrieved_context") or []
        ids = [str(p.get("doc_id")) if isinstance(p, Mapping) else None for p in passages]
        if doc_id is None or str(doc_id) not in ids:
            raise InputError(f"no retrieved passage has doc_id {doc_id!r} (they are {ids})", sample=name,
                             field="retrieved_context")
        reference = passages[ids.index(str(doc_id))]
    else:
        against = record.get(part.against)
        if against is None:
            raise InputError(f"missing: {kind} checks against it", sample=name, field=part.against)
        reference = _answer_reference(str(against), record.get(part.against_claims))
    column = ids.index(str(doc_id)) if kind.startswith("retrieved") else None
    if repeat is None and not getattr(judge, "repeat", 0):
        repeat = _shown_repeat(record, kind, claim, column)
        if repeat is None and REPEATS_FIELD not in record and hasattr(judge, "repeat"):
            shown = _cell(getattr(sample, kind), claim, column) if isinstance(sample, Sample) else \
                label_code(_cell(record.get(kind), claim, column))
            return _traced_repeat(judge, claims[claim], reference, shown, kind, claim,
                                  None if doc_id is None else str(doc_id))
    asked = judge if repeat is None else repeat_of(judge, repeat)
    found, reason = asked.trace_check(claims[claim], reference)
    return _answer(found, reason, kind, claim, None if doc_id is None else str(doc_id))


MAX_REPEATS_PROBED = 64


def _traced_repeat(judge: Any, claim: Any, reference: Any, shown: Any, kind: str, claim_index: int,
                   doc_id: Optional[str]) -> TraceAnswer:
    """For a record that does not keep its repeats' labels (a ``Sample``, as a widget holds it): the
    trace of the earliest repeat (0, 1, ... while traces are kept, at most MAX_REPEATS_PROBED) whose
    kept label is the one shown (``shown``: its code); repeat 0's when none is (a reviewed label, say)."""
    gave = lambda found: found[0] is not None and label_code(found[0].get("label")) == shown  # noqa: E731
    found = first = judge.trace_check(claim, reference)  # ``judge`` is repeat 0 here
    for r in range(1, MAX_REPEATS_PROBED):
        if found[0] is None or gave(found):
            break
        found = repeat_of(judge, r).trace_check(claim, reference)
    if not gave(found):
        found = first
    return _answer(*found, kind, claim_index, doc_id)


def _shown_repeat(record: Mapping[str, Any], kind: str, claim: int, column: Optional[int]) -> Optional[int]:
    """The earliest repeat whose label of this cell is the one ``record`` shows (the policy's pick),
    from its ``label_repeats``; None for a record without them."""
    copies = (record.get(REPEATS_FIELD) or {}).get(kind)
    if not isinstance(copies, list):
        return None
    shown = _cell(record.get(kind), claim, column)
    return next((r for r, labels in enumerate(copies) if _cell(labels, claim, column) == shown), None)


def _cell(labels: Any, claim: int, column: Optional[int]) -> Any:
    """``labels[claim]`` (``[claim][column]`` for a passage matrix); None where there is none."""
    try:
        row = labels[claim]
        return row if column is None else row[column]
    except (IndexError, KeyError, TypeError):
        return None


def _answer(found: Optional[dict], reason: Optional[str], kind: str, claim: Optional[int],
            doc_id: Optional[str]) -> TraceAnswer:
    if found is None:
        return TraceAnswer(None, reason)
    item = found.get("item")
    note = found.get("note")
    if note is None and kind != "extract" and item is not None:
        note = f"checked as claim {item + 1} of its call (one call checks several claims against a reference)"
    label = found.get("label")
    if kind == "extract" and claim is not None and isinstance(label, list) and 0 <= claim < len(label):
        label = label[claim]
    trace = Trace(kind=kind, claim=claim, doc_id=doc_id, label=label,
                  messages=tuple(dict(m) for m in found.get("messages") or ()), reply=found.get("reply"),
                  model=str(found.get("model") or ""), prompt_version=found.get("prompt_version"),
                  time=found.get("time"), finish_reason=found.get("finish_reason"), note=note,
                  reasoning=found.get("reasoning"))
    return TraceAnswer(trace, None)


def trace_of(judge: Any, sample: Any, kind: str, claim: Optional[int] = None, doc_id: Optional[str] = None, *,
             side: str = "response", instructions: Optional[str] = None,
             repeat: Optional[int] = None) -> Optional[Trace]:
    """``find_trace(...).trace``: the trace behind one label, or None (``find_trace`` says why)."""
    return find_trace(judge, sample, kind, claim, doc_id, side=side, instructions=instructions, repeat=repeat).trace
