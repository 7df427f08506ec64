"""The packaged HaluEval QA set: counts against the raw file, the seeded draw and subset, the truth
field, and the licence shipping with the data."""

import gzip
import hashlib
import json
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.datasets import halueval_qa
from ragwidgets.datasets.halueval import DATA
from ragwidgets.judges import LexicalJudge

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def raw():
    with gzip.open(DATA / "qa_data.jsonl.gz", "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


@pytest.fixture(scope="module")
def everything():
    return halueval_qa()


def test_licence_and_attribution_ship_with_the_data():
    licence = (DATA / "LICENSE.txt").read_text()
    assert "MIT License" in licence and "Copyright (c) 2020 RUCAIBox" in licence
    attribution = (DATA / "ATTRIBUTION.txt").read_text()
    assert "RUCAIBox/HaluEval" in attribution and "EMNLP 2023" in attribution


def test_package_data_globs_cover_the_dataset_files():
    """Every file of the dataset folder is matched by pyproject's package data, so the wheel has it."""
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["ragwidgets"]
    package = ROOT / "ragwidgets"
    files = [p.relative_to(package).as_posix() for p in DATA.iterdir() if p.is_file()]
    assert {"datasets/halueval_qa/LICENSE.txt", "datasets/halueval_qa/qa_data.jsonl.gz"} <= set(files)
    assert [f for f in files if not any(fnmatch(f, g) for g in globs)] == []


def test_packaged_copy_is_the_checked_one(raw):
    """The packaged file, byte for byte as the project's reference copy of RUCAIBox/HaluEval
    data/qa_data.json held it on 2026-12-02."""
    digest = hashlib.sha256((DATA / "qa_data.jsonl.gz").read_bytes()).hexdigest()
    assert digest == "04d52695f4d8c7bad4a9ff02767512240e0b9e11b372d51ea5c72c4b417fffeb"
    assert len(raw) == 10_000
    assert all(set(item) == {"knowledge", "question", "right_answer", "hallucinated_answer"} for item in raw)


def test_all_questions_map_to_records_with_the_drawn_answer(raw, everything):
    assert [r["query_id"] for r in everything] == [str(i) for i in range(10_000)]
    for record, item in zip(everything, raw):
        assert record["query"] == item["question"]
        assert record["retrieved_context"] == [{"doc_id": f"{record['query_id']}/knowledge", "text": item["knowledge"]}]
        drawn = item["hallucinated_answer"] if record["hallucinated"] else item["right_answer"]
        assert record["response"] == drawn
        assert "gt_answer" not in record  # the right answer would hand a judge the truth
        assert type(record["hallucinated"]) is bool


def test_the_draw_is_about_half_and_half(everything):
    share = np.mean([r["hallucinated"] for r in everything])
    assert abs(share - 0.5) < 3 * np.sqrt(0.25 / 10_000)  # within 3 standard errors of 1/2


def test_seeded_draw_and_subset_are_reproducible_and_nested(everything):
    assert halueval_qa(300, seed=4) == halueval_qa(300, seed=4)
    assert halueval_qa(300, seed=4) != halueval_qa(300, seed=5)
    small, large = halueval_qa(50, seed=0), halueval_qa(500, seed=0)
    assert len(small) == 50 and len(large) == 500
    ids = [int(r["query_id"]) for r in large]
    assert ids == sorted(ids) and len(set(ids)) == 500
    by_id = {r["query_id"]: r for r in everything}
    assert all(r in large for r in small)  # a smaller subset is part of a larger one
    assert all(by_id[r["query_id"]] == r for r in large)  # the same answer whatever n
    other = {r["query_id"]: r["hallucinated"] for r in halueval_qa(seed=1)}
    assert np.mean([other[q] != r["hallucinated"] for q, r in by_id.items()]) > 0.4  # the seed redraws


@pytest.mark.parametrize("n,error,match", [(0, ValueError, "n must be from 1 to 10000, not 0"),
                                           (10_001, ValueError, "n must be from 1 to 10000"),
                                           (2.5, TypeError, "n must be an integer, got float"),
                                           ("100", TypeError, "n must be an integer, got str"),
                                           (True, TypeError, "n must be an integer, got bool")])
def test_bad_n_is_named(n, error, match):
    with pytest.raises(error, match=match):
        halueval_qa(n)


def test_bad_seed_is_named():
    with pytest.raises(ValueError, match="seed must be ≥ 0"):
        halueval_qa(10, seed=-1)
    assert len(halueval_qa(np.int64(3))) == 3


def test_the_truth_passes_through_the_scorer():
    """Records score as they are with a judge, target-free; the truth stays in the scored frame."""
    records = halueval_qa(40, seed=2)
    scorer = rw.RagChecker(target_column=None, context_column="retrieved_context", scores_to_compute=["faithfulness"])
    result = scorer.score(records, LexicalJudge())
    assert result.frame["hallucinated"].tolist() == [r["hallucinated"] for r in records]
    assert result.frame["query_id"].tolist() == [r["query_id"] for r in records]
    assert result.frame["faithfulness"].notna().sum() > 30
