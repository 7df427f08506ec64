"""Contradiction is kept apart from Neutral end to end: loaders, explanation, view; never in the metrics."""

import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import ragwidgets as rw
from ragwidgets._fastload import read_flat
from ragwidgets.model import CONTRADICTED, ENTAILED, NOT_ENTAILED, UNJUDGED
from ragwidgets.scoring import RagChecker
from ragwidgets.widgets import SampleExplorer
from strategies import ragchecker_records

RECORD = {"query_id": "q", "retrieved_context": [{"doc_id": "d1", "text": "t"}, {"doc_id": "d2", "text": "u"}],
          "response_claims": [["a", "is", "b"], ["c", "is", "d"]], "gt_answer_claims": [["a", "is", "b"]],
          "answer2response": ["Contradiction", "Neutral"], "response2answer": ["Contradiction"],
          "retrieved2response": [["Entailment", "Contradiction"], ["Neutral", None]],
          "retrieved2answer": [["Contradiction", "Entailment"]]}
CODES = {"answer2response": [CONTRADICTED, NOT_ENTAILED], "response2answer": [CONTRADICTED],
         "retrieved2response": [[ENTAILED, CONTRADICTED], [NOT_ENTAILED, UNJUDGED]],
         "retrieved2answer": [[CONTRADICTED, ENTAILED]]}


def test_both_loader_paths_keep_the_contradiction_code():
    flat = read_flat(json.dumps({"results": [RECORD]}).encode(), False)
    assert flat is not None  # the msgspec fast path took it
    for sample in (flat.samples[0], rw.parse_sample(RECORD)):
        assert {name: getattr(sample, name).tolist() for name in CODES} == CODES


def test_the_validator_reads_other_spellings_and_booleans_stay_one_and_zero():
    sample = rw.parse_sample(dict(RECORD, answer2response=[" contradiction ", False], response2answer=[True]))
    assert sample.answer2response.tolist() == [CONTRADICTED, NOT_ENTAILED]
    assert sample.response2answer.tolist() == [ENTAILED]


def test_the_scorer_writes_a_contradiction_back_as_contradiction(tmp_path):
    path = tmp_path / "out.json"
    record = dict(RECORD, query="Q?", response="R.", gt_answer="A.",  # fully labelled: nothing to judge
                  retrieved2response=[["Entailment", "Contradiction"], ["Neutral", "Neutral"]])
    RagChecker(judge_model_key="unused-key").score({"results": [record]}).to_ragchecker_json(path)
    saved = json.loads(path.read_text())["results"][0]
    assert {name: saved[name] for name in CODES} == {name: record[name] for name in CODES}
    assert rw.load_samples(path).samples[0].answer2response.tolist() == CODES["answer2response"]


def neutral(value):
    """The same labels with every Contradiction read as Neutral."""
    if isinstance(value, list):
        return [neutral(v) for v in value]
    return "Neutral" if value == "Contradiction" else value


@settings(max_examples=30, deadline=None)
@given(st.lists(ragchecker_records(), min_size=1, max_size=5), st.sampled_from(["null", "zero"]))
def test_metrics_count_a_contradiction_exactly_as_not_entailed(records, undefined):
    records = [dict(r, query_id=str(i)) for i, r in enumerate(records)]
    plain = [{k: neutral(v) if k.endswith(("2response", "2answer")) else v for k, v in r.items()} for r in records]
    assert rw.evaluate(records, undefined=undefined).frame.equals(rw.evaluate(plain, undefined=undefined).frame)


def test_the_explanation_says_contradicted_and_not_mentioned_apart():
    cited = dict(RECORD, response_claims=[{"text": "a is b", "cites": ["d2"]}, {"text": "c is d", "cites": ["d1"]}])
    ex = rw.evaluate([cited]).explain("q")
    r1, r2 = ex.claims
    assert (r1.contradicted, r1.contradicted_by, r2.contradicted, r2.contradicted_by) == (True, ("d2",), False, ())
    assert r1.verdict == "incorrect (contradicted by the ground truth), supported by d1; contradicted by d2"
    assert r2.verdict == "incorrect, supported by no retrieved passage"
    assert [c.why for c in r1.citations + r2.citations] == [
        "invalid: d2 contradicts the claim", "invalid: d1 does not entail the claim"]
    assert (r1.citations[0].contradicts, r2.citations[0].contradicts) == (True, False)
    (g1,) = ex.gt_claims
    assert (g1.covered, g1.contradicted, g1.supported_by, g1.contradicted_by) == (False, True, ("d2",), ("d1",))
    assert [(p.contradicts_response, p.contradicts_gt) for p in ex.passages] == [((), ("G1",)), (("R1",), ())]


def test_the_sample_view_sends_the_contradiction_code_and_flags():
    view = SampleExplorer.ragchecker_example().view
    cells = np.frombuffer(view["matrix"]["cells"], np.int8)
    assert (cells == CONTRADICTED).sum() == 2  # G7 against passages 000 and 001
    claims = {c["id"]: c for c in view["claims"]}
    assert (claims["R11"]["contradicted"], claims["R1"]["contradicted"]) == (True, False)
    g7 = next(g for g in view["gt_claims"] if g["id"] == "G7")
    assert (g7["contradicted"], g7["contradicted_by"]) == (True, ["000", "001"])


def test_selecting_a_claim_lights_the_passages_that_contradict_it_and_back():
    explorer = SampleExplorer.ragchecker_example()
    explorer.select("gt:G7")
    assert {s["doc_id"]: s["roles"] for s in explorer.view["sources"] if s["roles"]} == {
        "000": ["contradicts"], "001": ["contradicts"]}
    explorer.select("source:000")
    assert {g["id"]: g["roles"] for g in explorer.view["gt_claims"] if g["roles"]} == {
        "G4": ["entailed"], "G5": ["entailed"], "G6": ["entailed"], "G7": ["contradicted"]}
