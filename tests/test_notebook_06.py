"""notebooks/06_review_a_run.ipynb runs top to bottom (nbclient, a real kernel), offline, and what
it prints is what the queue, the reviews file and the truth give when worked out here by hand."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.analysis import review_queue
from notebooks import execute
from ragwidgets.judges import LexicalJudge



@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("nb06")  # the judge cache, reviews and exports go there
    outputs, text = execute("06_review_a_run.ipynb", tmp)
    return outputs, text, tmp


@pytest.fixture(scope="module")
def by_hand():
    """The notebook's run judged here; the queue it draws; the reviewer's label (the truth) and the
    judge's per queued answer."""
    records = rw.datasets.halueval_qa(n=1000, seed=0)
    truth = {r["query_id"]: r["hallucinated"] for r in records}
    scorer = rw.RagChecker(target_column=None, context_column="retrieved_context", scores_to_compute=["faithfulness"])
    result = scorer.score(records, LexicalJudge())
    scores = rw.evaluate(result.records)
    queue = review_queue(scores, 30, seed=0)
    judge, reviewer = [], []
    for q in queue.query_ids:
        sample = scores.samples[scores.sample_index(q)]
        for row in np.asarray(sample.retrieved2response):
            judge.append("Entailment" if (row == rw.model.LABEL_CODES["Entailment"]).any() else "Neutral")
            reviewer.append("Neutral" if truth[q] else "Entailment")
    return queue, judge, reviewer


def test_runs_offline_and_writes_only_into_its_temporary_folder(executed):
    outputs, text, tmp = executed
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert "1000 answers judged" in text
    written = {p.name for p in tmp.rglob("*") if p.is_file()}
    assert {"reviews.jsonl", "reviewed_rows.csv", "reviewed_claims.parquet", "judge_cache.sqlite"} <= written


def test_the_queue_and_the_reviews_file_are_the_seeded_draw(executed, by_hand):
    _, text, tmp = executed
    queue, _, reviewer = by_hand
    assert f"{len(reviewer)} labels reviewed: 30 of 30 queued answers done" in text
    lines = [json.loads(x) for x in next(tmp.rglob("reviews.jsonl")).read_text().splitlines()]
    assert len(lines) == len(reviewer)
    assert list(dict.fromkeys(x["query_id"] for x in lines)) == list(queue.query_ids)  # in the queue's order
    assert [x["label"] for x in lines] == reviewer
    assert {x["reviewer"] for x in lines} == {"tutorial"}


def test_the_confusion_matrix_and_kappa_it_prints_are_the_hand_counts(executed, by_hand):
    _, text, _ = executed
    _, judge, reviewer = by_hand
    j, r = np.array(judge), np.array(reviewer)
    counts = {(a, b): int(((j == a) & (r == b)).sum()) for a in ("Entailment", "Neutral") for b in ("Entailment", "Neutral")}
    printed = re.search(r"Entailment\s+(\d+)\s+(\d+)\s+(\d+)\s*\nNeutral\s+(\d+)\s+(\d+)\s+(\d+)", text)
    assert printed, "no confusion matrix in the notebook's output"
    ee, en, ec, ne, nn, nc = map(int, printed.groups())
    assert (ee, en, ne, nn) == (counts["Entailment", "Entailment"], counts["Entailment", "Neutral"],
                                counts["Neutral", "Entailment"], counts["Neutral", "Neutral"]) and ec == nc == 0
    po = float((j == r).mean())
    pe = sum(float((j == c).mean()) * float((r == c).mean()) for c in ("Entailment", "Neutral"))
    kappa = (po - pe) / (1 - pe)
    found = re.search(r"agreement ([\d.]+), kappa (-?[\d.]+) beside the base rate ([\d.]+)", text)
    assert found
    assert float(found.group(1)) == pytest.approx(po, abs=5e-4)
    assert float(found.group(2)) == pytest.approx(kappa, abs=5e-4)
    majority = max(("Entailment", "Neutral"), key=lambda c: (r == c).mean())
    assert float(found.group(3)) == pytest.approx(float((r == majority).mean()), abs=5e-4)


def test_the_budget_line_follows_the_corrected_interval(executed):
    _, text, _ = executed
    said = re.search(r"review (\d+) more for ±0\.05 on faithfulness", text)
    assert said and int(said.group(1)) > 0
