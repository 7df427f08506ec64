"""Judge–reviewer agreement against hand-computed confusion matrices, kappa and F1."""

import json
import warnings

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.analysis.agreement import agreement, agreement_stats
from ragwidgets.errors import InputError, InputWarning
from ragwidgets.reviews import Review, ReviewLog

E, N, C = "Entailment", "Neutral", "Contradiction"
JUDGE = [E, E, N, C, N, E, E, N]
REVIEWER = [E, N, N, C, E, E, E, N]


def test_hand_computed_three_classes():
    a = agreement_stats(JUDGE, REVIEWER)
    # pairs (judge, reviewer): EE EN NN CC NE EE EE NN
    assert a.confusion.tolist() == [[3, 1, 0], [1, 2, 0], [0, 0, 1]]
    assert a.n == 8 and a.agreement.value == pytest.approx(6 / 8)
    # p_e = (4*4 + 3*3 + 1*1) / 64; kappa = (0.75 - p_e) / (1 - p_e) = 11/19
    assert a.kappa.value == pytest.approx(11 / 19) and a.kappa.n == 8
    f1 = {c.label: c.f1.value for c in a.classes}
    assert f1 == pytest.approx({E: 3 / 4, N: 2 / 3, C: 1.0})
    precision = {c.label: (c.precision.value, c.precision.n) for c in a.classes}
    assert precision[N] == (pytest.approx(2 / 3), 3)
    assert a.macro_f1.value == pytest.approx((3 / 4 + 2 / 3 + 1) / 3)
    assert a.majority_label == E and a.base_rate.value == 0.5
    assert a.majority_accuracy.value == 0.5
    assert a.majority_macro_f1.value == pytest.approx((2 * 0.5 / 1.5) / 3)
    lo, hi = a.kappa_interval
    assert lo <= a.kappa.value <= hi


def test_two_class_view_counts_contradiction_as_not_entailed():
    b = agreement_stats(JUDGE, REVIEWER).binary
    assert b.labels == ("Entailment", "not entailed")
    assert b.confusion.tolist() == [[3, 1], [1, 3]]
    assert b.kappa.value == pytest.approx((6 / 8 - 0.5) / 0.5)


def test_absent_class_is_undefined_with_a_reason():
    judge = [E, E, N, C, E]
    reviewer = [E, N, N, N, E]  # the reviewer never says Contradiction
    a = agreement_stats(judge, reviewer)
    c = {k.label: k for k in a.classes}[C]
    assert c.recall.value is None and "no reviewed label is Contradiction" in c.recall.reason
    assert c.precision.value == 0.0 and c.precision.n == 1  # the judge said it once, wrongly
    a = agreement_stats([E, N, E], [E, N, N])  # neither side says Contradiction
    c = {k.label: k for k in a.classes}[C]
    assert c.precision.value is None and c.recall.value is None and c.f1.value is None
    assert "absent from both" in c.f1.reason
    assert a.macro_f1.value == pytest.approx((2 / 3 + 2 / 3) / 2)  # over the classes in use
    row = a.per_class().loc[C]
    assert row["f1"] is None and row["reason"]


def test_kappa_undefined_when_chance_agreement_is_one():
    a = agreement_stats([E] * 5, [E] * 5)
    assert a.agreement.value == 1.0
    assert a.kappa.value is None and "chance agreement is 1" in a.kappa.reason
    assert a.kappa_interval == (None, None)
    empty = agreement_stats([], [])
    assert empty.n == 0 and empty.agreement.value is None and empty.kappa.value is None and empty.base_rate.reason


def test_always_majority_judge_matches_the_issue_figures():
    reviewer = [E] * 81 + [N] * 10 + [C] * 9  # 81% Entailment
    a = agreement_stats([E] * 100, reviewer)
    assert a.agreement.value == pytest.approx(0.81)
    assert a.macro_f1.value == pytest.approx(0.30, abs=0.005)
    assert a.majority_macro_f1.value == pytest.approx(a.macro_f1.value)
    assert a.kappa.value == pytest.approx(0.0)


def test_codes_and_any_case_spellings_read_as_labels_unjudged_left_out():
    strings = agreement_stats(JUDGE, REVIEWER)
    codes = {E: 1, N: 0, C: 2}
    as_codes = agreement_stats(np.array([codes[x] for x in JUDGE] + [-1]),
                               [x.lower() for x in REVIEWER] + [E])
    assert as_codes.confusion.tolist() == strings.confusion.tolist()
    assert as_codes.n_unjudged == 1 and as_codes.n == 8
    with pytest.raises(InputError, match="'maybe' is not one of the labels"):
        agreement_stats([E, "maybe"], [E, N])
    with pytest.raises(InputError, match="pair up"):
        agreement_stats([E, N], [E])


def test_cluster_bootstrap_is_wider_when_labels_within_a_sample_move_together():
    rng = np.random.default_rng(3)
    truth = rng.choice([E, N], size=60, p=[0.6, 0.4])
    judge = np.where(rng.random(60) < 0.2, np.where(truth == E, N, E), truth)
    j, r = np.repeat(judge, 10), np.repeat(truth, 10)  # ten identical labels per sample
    pairs = agreement_stats(j, r, seed=1)
    clusters = agreement_stats(j, r, groups=np.repeat(np.arange(60), 10), seed=1)
    assert clusters.kappa.value == pytest.approx(pairs.kappa.value)
    assert clusters.n_groups == 60
    width = lambda a: a.kappa_interval[1] - a.kappa_interval[0]  # noqa: E731
    assert width(clusters) > 2 * width(pairs)
    assert agreement_stats(j, r, groups=np.repeat(np.arange(60), 10), seed=1).kappa_interval == clusters.kappa_interval


def test_views_are_json_without_nan():
    view = agreement_stats([E, E, N], [E, N, N]).to_view()
    text = json.dumps(view, allow_nan=False)
    assert '"binary"' in text and view["confusion"] == [[1, 1, 0], [0, 1, 0], [0, 0, 0]]


# -- over a run's reviews ----------------------------------------------------------------------
def _record(qid, a2r, r2r, docs=("d0", "d1")):
    return {"query_id": qid, "query": "q", "gt_answer": "g", "response": "r",
            "retrieved_context": [{"doc_id": d, "text": d} for d in docs],
            "response_claims": [["s", "p", str(j)] for j in range(len(a2r))],
            "gt_answer_claims": [["s", "p", "0"]], "answer2response": a2r, "response2answer": [E],
            "retrieved2response": r2r, "retrieved2answer": [[E, N]]}


RUN = [_record("q1", [E, E, N], [[E, N], [N, N], [E, E]]), _record("q2", [N, C], [[N, N], [E, N]])]


def _reviews():
    return [Review("q1", "answer2response", 0, N), Review("q1", "answer2response", 2, N),
            Review("q2", "answer2response", 0, E), Review("q2", "answer2response", 1, C),
            Review("q1", "retrieved2response", 1, E, doc_id="d0"),  # judge: Neutral
            Review("q2", "answer2response", 5, E)]  # no claim 5: reported, left out


def test_agreement_over_a_run_reads_the_judge_label_at_each_reviewed_cell():
    judge = rw.evaluate(RUN)
    a = agreement(judge, _reviews())
    # answer2response (judge, reviewer): q1 (E, N), (N, N); q2 (N, E), (C, C)
    assert a.confusion("answer2response").to_numpy().tolist() == [[0, 1, 0], [1, 1, 0], [0, 0, 1]]
    row = a.table.set_index("kind").loc["answer2response"]
    assert row["n"] == 4 and row["n_samples"] == 2 and row["agreement"] == pytest.approx(0.5)
    assert a.confusion("retrieved2response").to_numpy().tolist() == [[0, 0, 0], [1, 0, 0], [0, 0, 0]]
    r2a = a.table.set_index("kind").loc["retrieved2answer"]
    assert r2a["n"] == 0 and r2a["agreement"] is None and r2a["reason"]
    assert len(a.problems) == 1 and "claim index out of range" in str(a.problems[0])
    json.dumps(a.to_view(), allow_nan=False)
    assert "<table>" in a._repr_html_()


def test_agreement_takes_reviewed_scores_a_reviews_file_and_runs(tmp_path):
    path = tmp_path / "reviews.jsonl"
    log = ReviewLog(path)
    for r in _reviews()[:5]:
        log.append(r)
    judge = rw.evaluate(RUN)
    direct = agreement(judge, _reviews()[:5]).table
    from_file = agreement(judge, path).table
    reviewed = rw.evaluate(RUN, reviews=path)
    assert from_file.equals(direct) and agreement(reviewed).table.equals(direct)
    runs = agreement({"a": judge, "b": reviewed}, {"a": path, "b": None}, by="run").table
    assert set(runs["run"]) == {"a", "b"}
    assert runs.groupby("run")["n"].sum().to_dict() == {"a": 5, "b": 5}
    per = agreement(judge, path, by={"q1": "x", "q2": "y"}).table
    assert per.set_index(["kind", "group"]).loc[("answer2response", "x"), "n"] == 2
    with pytest.raises(InputError, match="no reviews"):
        agreement(judge)


def test_one_sample_of_reviews_has_no_bootstrap_interval():
    judge = ["Entailment", "Neutral", "Entailment", "Neutral"]
    reviewer = ["Entailment", "Neutral", "Neutral", "Neutral"]
    one = agreement_stats(judge, reviewer, groups=["q1"] * 4)
    assert one.kappa.value is not None and one.kappa_interval == (None, None)
    assert one.agreement_interval == (None, None) and one.n_groups == 1
    two = agreement_stats(judge, reviewer, groups=["q1", "q1", "q2", "q2"])
    assert two.agreement_interval[0] is not None


def test_no_disagreement_at_20_samples_keeps_an_interval_of_width():
    """Nobody disagrees on 20 answers: the bootstrap resamples no disagreement, so the interval
    of kappa (and of agreement) must not collapse to the point 1."""
    truth = np.array([E, N, E, E, N, E, E, E, E, N] * 6)
    a = agreement_stats(truth, truth, groups=np.repeat(np.arange(20), 3))
    assert a.kappa.value == 1.0 and a.agreement.value == 1.0
    assert a.agreement_interval[0] < 0.9 and a.agreement_interval[1] == 1.0
    assert a.kappa_interval[0] < 0.8 and a.kappa_interval[1] == 1.0
    assert a.interval_note == ""


def test_labels_without_their_sample_are_said_to_be_resampled_singly():
    with pytest.warns(InputWarning, match="resample single labels"):
        a = agreement_stats(JUDGE, REVIEWER)
    assert "resample single labels" in a.interval_note and a.summary()["interval_note"] == a.interval_note
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        grouped = agreement_stats(JUDGE, REVIEWER, groups=[1, 1, 2, 2, 3, 3, 4, 4])
    assert grouped.interval_note == ""


def test_kappa_s_interval_stays_within_minus_one_and_one():
    # 4 answers, chance agreement 0.75: kappa at the agreement interval's low end is below -1
    a = agreement_stats([E, E, E, E], [E, N, E, E], groups=range(4))
    assert a.kappa_interval[0] == -1.0 and a.kappa.value == 0.0 and a.kappa_interval[1] <= 1.0
