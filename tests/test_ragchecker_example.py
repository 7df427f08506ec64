"""RAGChecker's own example (checking_outputs.json) reproduced exactly."""

import copy
import json
from importlib import resources

import pytest

import ragwidgets as rw

PATH = resources.files("ragwidgets.data").joinpath("ragchecker_example.json")
EXAMPLE = json.loads(PATH.read_text())


def test_ragcheckers_output_file_takes_the_fast_path_and_scores_as_its_records():
    """Its per-sample and aggregate ``metrics`` are ragchecker's own scores, not a reason to fall back."""
    loaded = rw.load_samples(str(PATH))
    assert loaded.flat is not None
    assert rw.evaluate(str(PATH)).frame.equals(rw.evaluate(EXAMPLE).frame)


@pytest.mark.parametrize("undefined", ["null", "zero"])
def test_every_stored_per_sample_value(undefined):
    scores = rw.evaluate(EXAMPLE, undefined=undefined)
    for i, record in enumerate(EXAMPLE["results"]):
        got = scores.metrics(i)
        for name, stored in record["metrics"].items():
            assert got[name] == stored, (record["query_id"], name)  # exact, not approximately


@pytest.mark.parametrize("undefined", ["null", "zero"])
def test_ragchecker_style_aggregate_equals_the_stored_one(undefined):
    summary = rw.evaluate(EXAMPLE, undefined=undefined).ragchecker_summary()
    assert summary == EXAMPLE["metrics"]
    assert summary["overall"] == {"precision": 76.4, "recall": 62.5, "f1": 68.3}


def test_aggregate_counts_samples():
    agg = rw.evaluate(EXAMPLE).aggregate()
    assert agg["precision"] == {"mean": pytest.approx(0.7636, abs=1e-4), "defined": 2, "undefined": 0,
                                "not_computable": 0}
    assert agg["citation_precision"]["not_computable"] == 2


def test_scores_to_compute_selects_a_subset():
    scores = rw.evaluate(EXAMPLE, ["faithfulness", "f1"])
    assert list(scores.frame.columns) == ["faithfulness", "f1"]
    assert scores.metrics(0) == {"faithfulness": pytest.approx(4 / 11), "f1": pytest.approx(0.5925925925925926)}
    # work for other metrics is skipped: noise sensitivity's passage relevance was never computed
    assert "psg_useful" not in vars(scores.parts[0].derived)
    with pytest.raises(ValueError, match="unknown metric"):
        rw.evaluate(EXAMPLE, ["precison"])


def _labelled():
    data = copy.deepcopy(EXAMPLE)
    for record in data["results"]:
        record["response_claim_labels"] = ["REQUIRED" if j % 2 == 0 else "optional"
                                           for j in range(len(record["response_claims"]))]
        record["gt_answer_claim_labels"] = ["required" if i < 4 else "OPTIONAL"
                                            for i in range(len(record["gt_answer_claims"]))]
    return data


def test_required_only_mode():
    data = _labelled()
    scores = rw.evaluate(data, mode="required_only")
    record = data["results"][1]
    resp = [j for j, x in enumerate(record["response_claim_labels"]) if x == "REQUIRED"]
    gt = [0, 1, 2, 3]
    correct = sum(record["answer2response"][j] == "Entailment" for j in resp)
    assert scores.metrics(1)["precision"] == correct / len(resp)
    covered = sum(record["response2answer"][i] == "Entailment" for i in gt)
    assert scores.metrics(1)["recall"] == covered / len(gt)
    ex = scores.explain(1)
    assert [c.id for c in ex.claims] == [f"R{j + 1}" for j in resp]
    assert ex.metrics["precision"].denominator_items == tuple(f"R{j + 1}" for j in resp)


def test_required_and_optional_mode_prefixes_required_metrics():
    data = _labelled()
    both = rw.evaluate(data, mode="required_and_optional")
    assert both.metrics(0)["precision"] == EXAMPLE["results"][0]["metrics"]["precision"]
    assert both.metrics(0)["required_precision"] == rw.evaluate(data, mode="required_only").metrics(0)["precision"]
    assert "required_faithfulness" in both.frame.columns
    assert set(both.ragchecker_summary()) == {"overall", "retriever", "generator", "required_overall",
                                              "required_retriever", "required_generator"}


def test_a_mode_that_needs_labels_names_the_sample_and_field():
    with pytest.raises(rw.InputError) as err:
        rw.evaluate(EXAMPLE, mode="required_only")
    assert err.value.field == "response_claim_labels"
    assert "query_id '0'" in err.value.sample
