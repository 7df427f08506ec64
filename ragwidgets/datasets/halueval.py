"""HaluEval's QA set as raw RAG samples whose truth is known: material for measuring a judge.

Data: RUCAIBox/HaluEval, ``data/qa_data.json``, MIT (``halueval_qa/LICENSE.txt``; cite Li, Cheng,
Zhao, Nie, Wen, "HaluEval: A Large-Scale Hallucination Evaluation Benchmark for Large Language
Models", EMNLP 2023). 10,000 HotpotQA questions, each with its Wikipedia knowledge, the right
answer and a hallucinated one (written by ChatGPT to be plausible, then filtered).

The mapping, per question (one sample, ``query_id`` = the line number, from "0"):

- ``query``: the question; ``retrieved_context``: the knowledge as the one passage
  (``<query_id>/knowledge``); ``response``: one of the two answers, drawn per question;
- ``hallucinated``: the truth, True iff the drawn answer is the hallucinated one (the right answer
  is supported by the knowledge, the hallucinated one is not);
- no ``gt_answer``: what is measured is whether the judge finds the response supported by the
  passage (faithfulness; an answer is hallucinated when any of its claims is not). The right answer
  as a target would hand the judge the truth: the response *is* the right answer exactly when it is
  not hallucinated, so a string match would score perfectly without reading the passage.

The records carry no claims or labels: score them with a judge (``rw.RagChecker(...,
target_column=None, context_column="retrieved_context").score(records)``); the ``hallucinated``
field passes through into the scored frame.
"""

from __future__ import annotations

import gzip
import json
import numbers
from functools import lru_cache
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent / "halueval_qa"
SIZE = 10_000


@lru_cache(maxsize=1)
def _raw() -> tuple[dict, ...]:
    with gzip.open(DATA / "qa_data.jsonl.gz", "rt", encoding="utf-8") as f:
        return tuple(json.loads(line) for line in f)


def _check_int(name: str, value, low: int, high: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r:.40}")
    if value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"≥ {low}"
        raise ValueError(f"{name} must be {bound}, not {value}")
    return int(value)


def halueval_qa(n: int | None = None, seed: int = 0) -> list[dict]:
    """``n`` questions of HaluEval QA (None: all 10,000) as RAGChecker-format records without
    claims: query_id, query, response, retrieved_context (the knowledge), hallucinated (the truth).

    Per question a seeded draw (probability 1/2) picks the hallucinated answer or the right one;
    ``n`` picks a seeded subset, kept in file order. Both depend on ``seed`` only, not on ``n``:
    the same question gets the same answer in every subset, and a smaller subset is part of a
    larger one."""
    seed = _check_int("seed", seed, 0, None)
    n = SIZE if n is None else _check_int("n", n, 1, SIZE)
    rng = np.random.default_rng(seed)
    drawn = rng.random(SIZE) < 0.5
    chosen = np.sort(rng.permutation(SIZE)[:n])
    raw = _raw()
    out = []
    for i in chosen.tolist():
        item, hallucinated = raw[i], bool(drawn[i])
        qid = str(i)
        out.append({
            "query_id": qid, "query": item["question"],
            "response": item["hallucinated_answer" if hallucinated else "right_answer"],
            "retrieved_context": [{"doc_id": f"{qid}/knowledge", "text": item["knowledge"]}],
            "hallucinated": hallucinated,
        })
    return out
