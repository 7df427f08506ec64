"""Bad input: a clear error naming the sample and the field; one bad sample loses no others."""

import json

import pytest

import ragwidgets as rw
from ragwidgets.cli import main
from ragwidgets.model import LABEL_MATRICES

GOOD = {"query_id": "ok", "retrieved_context": [{"doc_id": "d1", "text": "t"}],
        "response_claims": [["a", "b", "c"]], "gt_answer_claims": [["a", "b", "c"]],
        "answer2response": ["Entailment"], "response2answer": ["Neutral"],
        "retrieved2response": [["Entailment"]], "retrieved2answer": [["Contradiction"]]}


def bad(**change):
    out = dict(GOOD, query_id="bad")
    out.update(change)
    return out


CASES = [
    (bad(retrieved2response=[["Entailment", "Neutral"]]), "retrieved2response[0]", "1 passages, got 2"),
    (bad(answer2response=["Entailment", "Neutral"]), "answer2response", "has 2 labels but response_claims has 1"),
    (bad(retrieved2answer=[]), "retrieved2answer", "0 rows"),
    (bad(answer2response=["Entailed"]), "answer2response[0]", "unknown label 'Entailed'"),
    (bad(retrieved2response=[[1]]), "retrieved2response[0][0]", "unknown label 1"),
    (bad(response_claims=[{"text": "x", "cites": ["d9"]}], answer2response=None, retrieved2response=None),
     "response_claims[0].cites", "cites 'd9', which is neither a retrieved passage nor in 'corpus'"),
    (bad(response_claims=[["only", "two"]]), "response_claims[0]", "[subject, predicate, object]"),
    (bad(retrieved_context=[{"doc_id": "d1", "text": 5}]), "retrieved_context[0].text", "must be a string"),
    (bad(retrieved_context=[{"doc_id": "d1", "text": "a"}, {"doc_id": "d1", "text": "b"}]),
     "retrieved_context[1].doc_id", "appears twice"),
    (bad(response_claim_labels=["MAYBE"]), "response_claim_labels[0]", "REQUIRED' or 'OPTIONAL"),
    (bad(response_claim_labels=[]), "response_claim_labels", "1 claims, got 0"),
    (bad(retrieved_context=[{"doc_id": "d1", "text": "t", "relevant": "yes"}]),
     "retrieved_context[0].relevant", "true or false"),
    (bad(response_claims=None), "answer2response", "'response_claims' is missing"),
    (bad(reference_facts="day"), "reference_facts", "list of strings"),
    (bad(retrieved_context=[{"doc_id": "d1", "text": "t", "facts": ["f1"]}]), "answer2response[0]",
     "disagrees with the fact IDs (retrieved_context[0].facts), which decide entailment here"),
]


@pytest.mark.parametrize("record, field, message", CASES)
def test_error_names_sample_and_field(record, field, message):
    with pytest.raises(rw.InputError) as err:
        rw.load_samples([GOOD, record])
    assert err.value.field == field
    assert err.value.sample == "sample 1 (query_id 'bad')"
    assert message in str(err.value)


def test_fact_ids_beside_label_matrices_that_disagree_are_refused_by_both_load_paths(tmp_path):
    """One claim with fact IDs beside full Entailment matrices was scored from the facts alone
    (precision 0, hallucination 1, where the labels give 1 and 0): evidence that disagrees is an error."""
    mixed = bad(response_claims=[{"text": "a b c", "facts": ["f1"]}], answer2response=["Entailment"],
                retrieved2answer=[["Entailment"]])
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"results": [GOOD, mixed]}))
    for source in ([GOOD, mixed], path):
        with pytest.raises(rw.InputError) as err:
            rw.load_samples(source)
        assert (err.value.sample, err.value.field) == ("sample 1 (query_id 'bad')", "answer2response[0]")
        assert "disagrees with the fact IDs (response_claims[0].facts)" in str(err.value)
    facts_only = {k: v for k, v in mixed.items() if k not in LABEL_MATRICES}
    assert rw.evaluate(facts_only).metrics("bad")["faithfulness"] == 0.0  # facts alone: still read


def test_labels_a_fact_judge_filled_agree_with_the_facts_and_score_as_the_facts_do():
    from ragwidgets.judges import FactJudge, fill_labels
    record = {"query_id": "f", "query": "q", "response": "r", "gt_answer": "g",
              "response_claims": [{"text": "opens at 9", "facts": ["hours"]}, {"text": "free", "facts": ["fee"]}],
              "gt_answer_claims": [{"text": "opens at 9", "facts": ["hours"]}],
              "retrieved_context": [{"doc_id": "D1", "text": "Opens at 9.", "facts": ["hours"]},
                                    {"doc_id": "D2", "text": "no facts authored"}]}
    filled = fill_labels([record], FactJudge(), needs=set(LABEL_MATRICES))[0]
    assert filled["retrieved2response"] == [["Entailment", None], ["Neutral", None]]  # D2: unjudged
    assert rw.evaluate([filled]).metrics("f") == rw.evaluate([record]).metrics("f")
    filled["retrieved2response"][1][0] = "Contradiction"  # not entailed, as the facts say: agrees
    rw.load_samples([filled])
    filled["retrieved2response"][1][0] = "Entailment"
    with pytest.raises(rw.InputError, match=r"retrieved2response\[1\]\[0\].*disagrees with the fact IDs"):
        rw.load_samples([filled])


def test_report_mode_keeps_the_good_samples():
    loaded = rw.load_samples([GOOD, bad(answer2response=["?"]), dict(GOOD, query_id="ok2")], on_error="report")
    assert [s.query_id for s in loaded.samples] == ["ok", "ok2"]
    assert [e.field for e in loaded.errors] == ["answer2response[0]"]


def test_file_level_errors(tmp_path):
    with pytest.raises(rw.InputError, match="'results'"):
        rw.load_samples({"samples": []})
    path = tmp_path / "x.json"
    path.write_text("{not json")
    with pytest.raises(rw.InputError, match="not valid JSON"):
        rw.load_samples(path)
    with pytest.raises(rw.InputError, match="no such file"):
        rw.load_samples(tmp_path / "missing.json")
    with pytest.raises(rw.InputError, match="duplicate query_id"):
        rw.load_samples([GOOD, GOOD])
    with pytest.raises(rw.InputError, match="must be a JSON object"):
        rw.load_samples([GOOD, 3])


def test_jsonl_and_line_numbers(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps(GOOD) + "\n" + json.dumps(dict(GOOD, query_id="b")) + "\n")
    assert [s.query_id for s in rw.load_samples(path).samples] == ["ok", "b"]
    path.write_text(json.dumps(GOOD) + "\n{broken\n")
    with pytest.raises(rw.InputError, match="line 2"):
        rw.load_samples(path)


def test_cli_reports_bad_input_without_a_traceback(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"results": [GOOD, bad(answer2response=["?"])]}))
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert "sample 1 (query_id 'bad'), field 'answer2response[0]'" in err and "Traceback" not in err
    assert main(["score", str(path), "--on-error", "report", "--format", "json"]) == 1
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert [r["query_id"] for r in out["results"]] == ["ok"]
    assert out["errors"][0]["field"] == "answer2response[0]"
    assert "skipped sample 1" in captured.err


def test_single_sample_jsonl(tmp_path):
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(GOOD) + "\n")
    assert [s.query_id for s in rw.load_samples(path).samples] == ["ok"]


def test_fast_paths_build_what_the_general_parser_builds():
    fast = rw.parse_sample(GOOD)
    general = rw.parse_sample(dict(
        GOOD, response_claims=[{"subject": "a", "predicate": "b", "object": "c"}],
        gt_answer_claims=[{"subject": "a", "predicate": "b", "object": "c"}],
        retrieved_context=[{"doc_id": "d1", "text": "t", "outdated": False}],
        answer2response=[True], response2answer=[False],
        retrieved2response=[[True]], retrieved2answer=[["contradiction"]]))  # booleans have no contradiction
    assert fast.response_claims == general.response_claims and fast.gt_claims == general.gt_claims
    assert fast.passages == general.passages
    for name in ("answer2response", "response2answer", "retrieved2response", "retrieved2answer"):
        assert (getattr(fast, name) == getattr(general, name)).all(), name
