"""View state: everything the front end draws, built in one step from one sample's explanation.

Pure functions, no widget imports: a :class:`~ragwidgets.engine.explain.SampleExplanation` plus
the control state go in, one dict comes out, JSON-ready but for the entailment matrix's cells
(``bytes``, sent as a binary buffer). The front end only draws it, so a view can never be stale:
every control change rebuilds the whole dict (and the front end changes only what differs).

Selection ids: ``claim:R1`` (answer claim), ``gt:G1`` (ground-truth claim), ``source:D1``.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from ..engine.explain import SampleExplanation
from ..engine.metrics import CITATION_METRICS, METRICS, RAGCHECKER_GROUPS, format_value, metric_label
from ..model import Sample

BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")  # as in js/src/text.js


def show_id(text) -> str:
    """An ID with its bidi control characters made visible (``⟨U+202E⟩``), as ``showId`` in the JS."""
    return BIDI.sub(lambda m: f"⟨U+{ord(m.group()):04X}⟩", str(text))


LOWER_IS_BETTER = {n for n, m in METRICS.items() if m.lower_is_better}
GROUP_TITLES = {"citation": "Citation family", "overall": "RAGChecker · overall",
                "retriever": "RAGChecker · retriever", "generator": "RAGChecker · generator"}
UNDEFINED_WORDS = {"undefined", "undef", "u", "none", "nan", "null", "n/a", "na"}
TOLERANCE = 0.01  # a prediction of 0.67 matches 2/3


def parse_prediction(text: str) -> tuple[bool, float | None]:
    """("2/3" | "0.5" | "50%" | "Undefined") -> (readable, value); value None means Undefined."""
    t = str(text).strip().lower()
    if t in UNDEFINED_WORDS:
        return True, None
    try:
        if t.endswith("%"):
            x = float(t[:-1]) / 100
        elif "/" in t:
            num, den = t.split("/", 1)
            x = float(num) / float(den)
        else:
            x = float(t)
    except (ValueError, ZeroDivisionError):
        return False, None
    return (True, x) if math.isfinite(x) else (False, None)


def card_groups(ex: SampleExplanation, citation_first: bool) -> tuple[list[tuple[str, list[str]]], list[dict]]:
    """The computable metrics grouped for score cards, and the not-computable ones with why.

    Faithfulness belongs to both families: it sits in the citation family when that family
    leads (a lesson world), else among RAGChecker's generator metrics.
    """
    computable = [n for n, m in ex.metrics.items() if m.status != "not computable"]
    citation = [n for n in CITATION_METRICS if n in computable]
    if not citation_first:
        citation = [n for n in citation if n != "faithfulness"]
    groups = [("citation", citation)] if citation_first else []
    for group, members in RAGCHECKER_GROUPS.items():
        taken = set(citation) if citation_first else set()
        groups.append((group, [n for n in members if n in computable and n not in taken]))
    if not citation_first:
        groups.append(("citation", citation))
    missing = [{"name": n, "label": metric_label(n), "reason": m.reason or ""}
               for n, m in ex.metrics.items() if m.status == "not computable"]
    return [(g, names) for g, names in groups if names], missing


def card(ex: SampleExplanation, name: str, predict: bool, prediction: str | None) -> dict[str, Any]:
    m = ex.metrics[name]
    shown = format_value(m.value)
    out = {
        "name": name,
        "label": metric_label(name),
        "value": m.value,
        "shown": shown,
        "fraction": m.fraction,
        "status": m.status,
        "reason": m.reason,
        "definition": METRICS[name].definition,
        "lower_is_better": METRICS[name].lower_is_better,
        "numerator_items": list(m.numerator_items),
        "denominator_items": list(m.denominator_items),
        "hidden": False,
        "prediction": None,
    }
    if predict:
        if prediction is None or not str(prediction).strip():
            out["hidden"] = True
        else:
            readable, guess = parse_prediction(prediction)
            if not readable:
                out["hidden"] = True
                out["prediction"] = {"text": str(prediction), "readable": False, "match": False,
                                     "message": "Enter a number (0.5, 2/3, 50%) or Undefined"}
            else:
                match = (guess is None and m.value is None) or (
                    guess is not None and m.value is not None and abs(guess - m.value) <= TOLERANCE)
                out["prediction"] = {"text": str(prediction), "readable": True, "match": bool(match),
                                     "shown": format_value(guess)}
    return out


def _yes_no(x: bool | None) -> str | None:
    return None if x is None else ("yes" if x else "no")


def highlights(view: dict, selected: str) -> dict[str, list[str]]:
    """What the selection lights up, from what the view carries: {"claim:R1": [roles], ...}.

    A selected answer claim lights its supporting passages ("supports"), contradicting ones
    ("contradicts") and cited sources ("cited"); a selected ground-truth claim its supporting
    and contradicting passages; a selected source the claims it entails ("entailed"), contradicts
    ("contradicted") and the claims that cite it ("cites"). "" lights nothing. js/src/selection.js
    is its port: the front end draws a selection without asking Python.
    """
    out: dict[str, list[str]] = {}

    def mark(key: str, role: str) -> None:
        out.setdefault(key, []).append(role)

    if not selected:
        return out
    kind, _, ident = selected.partition(":")
    mark(selected, "selected")
    if kind in ("claim", "gt"):
        for c in view["claims" if kind == "claim" else "gt_claims"]:
            if c["id"] == ident:
                for d in c["supported_by"]:
                    mark(f"source:{d}", "supports")
                for d in c["contradicted_by"]:
                    mark(f"source:{d}", "contradicts")
                for cit in (c["citations"] or ()) if kind == "claim" else ():
                    mark(f"source:{cit['doc_id']}", "cited")
    elif kind == "source":
        for p in view["sources"]:
            if p["doc_id"] == ident:
                for r in p["entails_response"]:
                    mark(f"claim:{r}", "entailed")
                for g in p["entails_gt"]:
                    mark(f"gt:{g}", "entailed")
                for r in p["contradicts_response"]:
                    mark(f"claim:{r}", "contradicted")
                for g in p["contradicts_gt"]:
                    mark(f"gt:{g}", "contradicted")
        for c in view["claims"]:
            if any(cit["doc_id"] == ident for cit in c["citations"] or ()):
                mark(f"claim:{c['id']}", "cites")
    return out


def with_selection(view: dict, selected: str) -> dict:
    """``view`` with ``selected`` and each source's, claim's and ground-truth claim's roles for it
    (:func:`highlights`); the view itself when it already shows that selection."""
    if view.get("selected") == selected:
        return view
    lit = highlights(view, selected)
    return {**view, "selected": selected,
            **{part: [{**x, "roles": lit.get(x["key"], [])} for x in view[part]]
               for part in ("sources", "claims", "gt_claims")}}


def selectable(ex: SampleExplanation) -> set[str]:
    return ({f"claim:{c.id}" for c in ex.claims} | {f"gt:{g.id}" for g in ex.gt_claims}
            | {f"source:{p.doc_id}" for p in ex.passages})


def entailment_matrix(sample: Sample, ex: SampleExplanation) -> dict | None:
    """Claims x passages labels for a sample judged by labels. ``cells``: int8 bytes, row-major,
    the response rows then the ground-truth rows (1 entails, 0 does not mention, 2 contradicts,
    -1 unjudged); a column is
    active when its passage is in play."""
    if sample.uses_facts or (sample.retrieved2response is None and sample.retrieved2answer is None):
        return None

    def rows(matrix, kind, prefix, claims):
        if matrix is None:
            return []
        return [{"key": f"{kind}:{prefix}{j + 1}", "id": f"{prefix}{j + 1}", "text": c.text}
                for j, c in enumerate(claims)]

    blocks = [m for m in (sample.retrieved2response, sample.retrieved2answer) if m is not None]
    return {
        "columns": [{"doc_id": p.doc_id, "active": p.retrieved} for p in ex.passages if p.rank is not None],
        "response": rows(sample.retrieved2response, "claim", "R", sample.response_claims),
        "gt": rows(sample.retrieved2answer, "gt", "G", sample.gt_claims),
        "cells": np.concatenate(blocks).astype(np.int8).tobytes(),
    }


def passage_labels(ex: SampleExplanation) -> bool:
    """Whether the claims' passage verdicts (faithful, supported by) are known: faithfulness is
    computable. Without passage labels no claim is called faithful or unfaithful."""
    return ex.metrics["faithfulness"].status != "not computable"


def summary(ex: SampleExplanation) -> str:
    """One line of counts, e.g. "Retrieved 2 documents · Relevant 2 · Answer claims 3 · ...";
    "Supported" only where passage labels say it."""
    retrieved = [p for p in ex.passages if p.retrieved]
    parts = [f"Retrieved {len(retrieved)} document{'s' if len(retrieved) != 1 else ''}"]
    if all(p.relevant is not None for p in ex.passages):
        parts.append(f"Relevant {sum(bool(p.relevant) for p in retrieved)}")
    parts.append(f"Answer claims {len(ex.claims)}")
    if passage_labels(ex):
        parts.append(f"Supported {sum(c.faithful for c in ex.claims)}")
    citations = [cit for c in ex.claims for cit in (c.citations or ())]
    if any(c.citations is not None for c in ex.claims):
        parts.append(f"Present citations {len(citations)}")
        parts.append(f"Valid citations {sum(c.valid for c in citations)}")
    if ex.gt_claims:
        parts.append(f"Ground-truth claims {len(ex.gt_claims)}")
    if ex.reference_facts:
        parts.append(f"Covered required facts {sum(f.present for f in ex.reference_facts)}/{len(ex.reference_facts)}")
    return " · ".join(parts)


def build_view(ex: SampleExplanation, sample: Sample, *, kind: str, title: str, question: str,
               answer_text: str, gt_answer: str, fact_texts: dict[str, str], controls: dict,
               state_label: str, selected: str, predict: bool, predictions: dict[str, str],
               citation_first: bool, ranks: dict[str, int] | None = None,
               order: list[str] | None = None) -> dict:
    """The whole view state for one sample under the current controls.

    ``ranks``: the rank shown for each passage in play (default: its retrieval rank). ``order``:
    the doc_ids in the order the sources are listed (default: by rank, corpus sources last); a
    caller keeps it fixed while passages are toggled, so rows never move under the pointer. A
    passage can be toggled when it is a retrieved passage of the sample, not a corpus source.
    """
    cited_by: dict[str, list[str]] = {}
    for c in ex.claims:
        for cit in c.citations or ():
            cited_by.setdefault(cit.doc_id, []).append(c.id)
    sources = []
    for p in ex.passages:
        key = f"source:{p.doc_id}"
        sources.append({
            "key": key, "doc_id": p.doc_id, "text": p.text,
            "facts": None if p.facts is None else list(p.facts),
            "retrieved": p.retrieved, "rank": p.rank if ranks is None else ranks.get(p.doc_id),
            "relevant": _yes_no(p.relevant), "outdated": p.outdated,
            "entails_response": list(p.entails_response), "entails_gt": list(p.entails_gt),
            "contradicts_response": list(p.contradicts_response), "contradicts_gt": list(p.contradicts_gt),
            "cited_by": cited_by.get(p.doc_id, []),
            "toggleable": p.rank is not None, "roles": [],
        })
    if order is None:
        sources.sort(key=lambda s: (s["rank"] is None, s["rank"] or 0))
    else:
        position = {d: k for k, d in enumerate(order)}
        sources.sort(key=lambda s: position[s["doc_id"]])
    has_citations = any(c.citations is not None for c in ex.claims)
    judged = passage_labels(ex)  # else faithful is None: no verdict on a metric not computable
    claims = []
    for c in ex.claims:
        key = f"claim:{c.id}"
        claims.append({
            "key": key, "id": c.id, "text": c.text, "facts": None if c.facts is None else list(c.facts),
            "required": c.required, "correct": c.correct, "faithful": c.faithful if judged else None,
            "supported_by": list(c.supported_by), "contradicted_by": list(c.contradicted_by),
            "contradicted": c.contradicted,
            "citations": None if c.citations is None else [
                {"doc_id": x.doc_id, "retrieved": x.retrieved, "entails": x.entails, "valid": x.valid,
                 "why": x.why, "contradicts": x.contradicts} for x in c.citations],
            "roles": [],
        })
    gt_claims = [{"key": f"gt:{g.id}", "id": g.id, "text": g.text, "covered": g.covered,
                  "supported_by": list(g.supported_by), "contradicted_by": list(g.contradicted_by),
                  "contradicted": g.contradicted, "roles": []} for g in ex.gt_claims]
    facts = [{"fact_id": f.fact_id, "text": fact_texts.get(f.fact_id, ""), "present": f.present,
              "stated_by": list(f.stated_by)} for f in ex.reference_facts]
    groups, missing = card_groups(ex, citation_first)
    # In a lesson world the citation family leads and RAGChecker's groups are secondary (folded).
    cards = [{"group": g, "title": GROUP_TITLES[g], "secondary": citation_first and g != "citation",
              "cards": [card(ex, n, predict, predictions.get(n)) for n in names]} for g, names in groups]
    return with_selection({
        "kind": kind,
        "title": title,
        "question": question,
        "answer": answer_text,
        "gt_answer": gt_answer,
        "query_id": ex.query_id,
        "state": state_label,
        "controls": controls,
        "summary": summary(ex),
        "sources": sources,
        "claims": claims,
        "has_citations": has_citations,
        "gt_claims": gt_claims,
        "matrix": entailment_matrix(sample, ex),
        "facts": facts,
        "card_groups": cards,
        "not_computable": missing,
        "selected": "",
        "predict": predict,
        "predictions": dict(predictions),
    }, selected)
