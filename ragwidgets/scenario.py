"""A lesson world (like the Harbor Museum): sources, facts, and bundles whose product is its states.

A state is (retrieval bundle, answer bundle, citation rule). Each state becomes an ordinary
sample: the bundle's sources are retrieved, the others are the corpus, every answer claim states
one fact, the citation rule decides what each claim cites, and the reference facts are the
ground-truth claims. So a state is scored by the same engine as any RAGChecker sample.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from itertools import product
from pathlib import Path
from typing import Any

from .engine import evaluate
from .engine.batch import Batch
from .engine.metrics import CITATION_METRICS
from .errors import InputError
from .loaders import parse_sample
from .model import Sample

RULES = ("matched", "fixed", "mixed", "none")
EXAMPLES = {"harbor-museum": "harbor_museum.json"}


@dataclass(frozen=True)
class State:
    retrieval: str
    answer: str
    citation: str


class Scenario:
    """A finite lesson world loaded from a scenario file (its format: the shipped example, ragwidgets/data/harbor_museum.json)."""

    def __init__(self, spec: dict[str, Any], origin: str = "scenario"):
        self.origin = origin
        self._spec = spec
        fail = self._fail
        if not isinstance(spec, dict):
            fail(None, f"must be a JSON object, got {type(spec).__name__}")
        for key in ("sources", "facts", "retrieval_bundles", "answer_bundles", "citation_rules"):
            if key not in spec:
                fail(key, "is missing")
        self.title = str(spec.get("title", ""))
        self.question = str(spec.get("question", ""))
        sources = spec["sources"]
        if not isinstance(sources, list) or not sources:
            fail("sources", "must be a non-empty list of {doc_id, text, facts, relevant, outdated}")
        self.sources = sources
        self.doc_ids = [s.get("doc_id") if isinstance(s, dict) else None for s in sources]
        if not all(isinstance(d, str) for d in self.doc_ids) or len(set(self.doc_ids)) != len(self.doc_ids):
            fail("sources", "every source needs a distinct string doc_id")
        try:  # the loader's own checks of text, facts, relevant and outdated
            parse_sample({"corpus": sources})
        except InputError as err:
            fail(err.field.replace("corpus", "sources", 1), err.detail)
        self.facts = spec["facts"]
        if not isinstance(self.facts, dict):
            fail("facts", "must map fact IDs to {text, cite}")
        for fact_id, info in self.facts.items():
            if not isinstance(info, dict) or not isinstance(info.get("text", ""), str):
                fail(f"facts[{fact_id!r}]", "must be an object {text, cite}")
            if info.get("cite") is not None and info["cite"] not in self.doc_ids:
                fail(f"facts[{fact_id!r}].cite", f"names {info['cite']!r}, which is not a source")
        self.reference_facts = list(spec.get("reference_facts", []))
        for f in self.reference_facts:
            if f not in self.facts:
                fail("reference_facts", f"{f!r} is not in 'facts'")
        self.retrieval_bundles = self._bundles("retrieval_bundles", self.doc_ids, "source")
        self.answer_bundles = self._bundles("answer_bundles", list(self.facts), "fact")
        self.citation_rules = spec["citation_rules"]
        if not isinstance(self.citation_rules, dict) or not self.citation_rules:
            fail("citation_rules", "must be a non-empty object of named rules")
        for name, rule in self.citation_rules.items():
            where = f"citation_rules[{name!r}]"
            if not isinstance(rule, dict) or rule.get("rule") not in RULES:
                fail(where, f"needs 'rule', one of {', '.join(RULES)}")
            if rule["rule"] in ("fixed", "mixed") and rule.get("doc_id") not in self.doc_ids:
                fail(f"{where}.doc_id", f"must name a source, got {rule.get('doc_id')!r}")
            if rule["rule"] == "mixed" and not (isinstance(rule.get("matched_first"), int)
                                               and rule["matched_first"] >= 0):
                fail(f"{where}.matched_first", "must be a non-negative integer")
        self._samples: dict[State, Sample] = {}

    def _fail(self, field: str | None, message: str):
        raise InputError(message, sample=self.origin, field=field)

    def _bundles(self, key: str, known: list[str], kind: str) -> dict[str, list[str]]:
        bundles = self._spec[key]
        if not isinstance(bundles, dict) or not bundles:
            self._fail(key, "must be a non-empty object of named lists")
        for name, items in bundles.items():
            if not isinstance(items, list):
                self._fail(f"{key}[{name!r}]", f"must be a list of {kind} IDs")
            for item in items:
                if item not in known:
                    self._fail(f"{key}[{name!r}]", f"{item!r} is not a known {kind}")
        return bundles

    # -- loading ------------------------------------------------------------------------------
    @classmethod
    def load(cls, source: str | Path | dict) -> "Scenario":
        """From a path, or an already parsed dict."""
        if isinstance(source, dict):
            return cls(source)
        path = Path(source)
        if not path.exists():
            raise InputError(f"no such scenario file: {path}")
        try:
            spec = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise InputError(f"{path} is not valid JSON: {err}") from None
        return cls(spec, origin=f"scenario {path.name}")

    @classmethod
    def example(cls, name: str = "harbor-museum") -> "Scenario":
        if name not in EXAMPLES:
            raise ValueError(f"unknown example {name!r}; known: {', '.join(EXAMPLES)}")
        text = resources.files("ragwidgets.data").joinpath(EXAMPLES[name]).read_text(encoding="utf-8")
        return cls(json.loads(text), origin=f"example {name}")

    @classmethod
    def harbor(cls) -> "Scenario":
        """The Harbor Museum lesson shipped with the package."""
        return cls.example("harbor-museum")

    # -- states -------------------------------------------------------------------------------
    @property
    def default_state(self) -> State:
        return State(next(iter(self.retrieval_bundles)), next(iter(self.answer_bundles)),
                     next(iter(self.citation_rules)))

    def states(self) -> list[State]:
        """Every (retrieval, answer, citation) combination, in file order."""
        return [State(*s) for s in product(self.retrieval_bundles, self.answer_bundles, self.citation_rules)]

    def matched_source(self, fact_id: str) -> str | None:
        """The fact's ``cite`` source, else the first source listing it, else None."""
        cite = self.facts[fact_id].get("cite")
        if cite is not None:
            return cite
        return next((s["doc_id"] for s in self.sources if fact_id in s.get("facts", ())), None)

    def citations(self, rule_name: str, facts: list[str]) -> list[list[str]]:
        """What each claim (one per fact) cites under a citation rule."""
        rule = self.citation_rules[rule_name]
        out = []
        for position, fact in enumerate(facts):
            kind = rule["rule"]
            if kind == "mixed":
                kind = "matched" if position < rule["matched_first"] else "fixed"
            if kind == "matched":
                doc = self.matched_source(fact)
                out.append([doc] if doc else [])
            elif kind == "fixed":
                out.append([rule["doc_id"]])
            else:
                out.append([])
        return out

    def record(self, retrieval: str, answer: str, citation: str) -> dict:
        """The state as a RAGChecker-format record with the citation-family extensions."""
        for value, options, what in ((retrieval, self.retrieval_bundles, "retrieval bundle"),
                                     (answer, self.answer_bundles, "answer bundle"),
                                     (citation, self.citation_rules, "citation rule")):
            if value not in options:
                raise KeyError(f"unknown {what} {value!r}; known: {', '.join(options)}")
        retrieved = set(self.retrieval_bundles[retrieval])
        by_id = dict(zip(self.doc_ids, self.sources))
        facts = self.answer_bundles[answer]
        claims = [{"text": self.facts[f].get("text", f), "facts": [f], "cites": cites}
                  for f, cites in zip(facts, self.citations(citation, facts))]
        return {
            "query_id": f"{retrieval} | {answer} | {citation}",
            "query": self.question,
            "gt_answer": " ".join(self.facts[f].get("text", f) for f in self.reference_facts),
            "response": " ".join(c["text"] for c in claims),
            "retrieved_context": [by_id[d] for d in self.retrieval_bundles[retrieval]],
            "corpus": [s for s in self.sources if s["doc_id"] not in retrieved],
            "response_claims": claims,
            "gt_answer_claims": [{"text": self.facts[f].get("text", f), "facts": [f]} for f in self.reference_facts],
            "reference_facts": self.reference_facts,
        }

    def sample(self, retrieval: str | None = None, answer: str | None = None, citation: str | None = None) -> Sample:
        """The state's sample (defaults: the first bundle / rule of each kind)."""
        d = self.default_state
        state = State(retrieval or d.retrieval, answer or d.answer, citation or d.citation)
        if state not in self._samples:
            self._samples[state] = parse_sample(self.record(state.retrieval, state.answer, state.citation))
        return self._samples[state]

    def sweep(self, scores=CITATION_METRICS):
        """Every state's metrics: columns retrieval, answer, citation, then one per metric (NaN = Undefined)."""
        import pandas as pd  # on first use: importing ragwidgets (the command line) needs no pandas

        states = self.states()
        batch = Batch.from_samples([self.sample(s.retrieval, s.answer, s.citation) for s in states])
        frame = evaluate(batch, scores).frame.reset_index(drop=True)
        keys = pd.DataFrame([(s.retrieval, s.answer, s.citation) for s in states],
                            columns=["retrieval", "answer", "citation"])
        return pd.concat([keys, frame], axis=1)

    def __repr__(self) -> str:
        return (f"Scenario({self.title!r}: {len(self.retrieval_bundles)} retrieval bundles x "
                f"{len(self.answer_bundles)} answer bundles x {len(self.citation_rules)} citation rules "
                f"= {len(self.states())} states)")
