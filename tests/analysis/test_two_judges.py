"""Two judges of one run: agreement on hand-built label sets, the disagreement mask and slices,
and the paired interval of each metric's difference."""

import numpy as np
import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets.analysis import paired_difference, two_judges
from ragwidgets.analysis.bootstrap import bootstrap_means, percentile_interval
from ragwidgets.errors import InputError

E, N, C = "Entailment", "Neutral", "Contradiction"
A_LABELS = [[E, E], [N, E], [C]]
B_LABELS = [[E, N], [N, E], [E]]


def records(labels, *, claims=None):
    return [{"query_id": f"q{i}", "query": f"question {i}",
             "response_claims": claims[i] if claims else [["s", "p", f"o{j}"] for j in range(len(row))],
             "answer2response": row} for i, row in enumerate(labels)]


def scores(labels, **kw):
    return rw.evaluate(records(labels, **kw))


def test_agreement_on_hand_built_labels():
    t = two_judges(scores(A_LABELS), scores(B_LABELS), ("gpt", "lexical"), n_boot=200)
    a = t.agreement["answer2response"]
    # pairs (B, A): EE NE NN EE EC
    assert t.confusion("answer2response").to_numpy().tolist() == [[2, 0, 1], [1, 1, 0], [0, 0, 0]]
    assert t.confusion("answer2response").index.name == "lexical"
    assert t.confusion("answer2response").columns.name == "gpt"
    assert a.agreement.value == pytest.approx(3 / 5)
    # p_e = (3*3 + 2*1 + 0*1) / 25 = 11/25; kappa = (15/25 - 11/25) / (14/25) = 2/7
    assert a.kappa.value == pytest.approx(2 / 7)
    assert a.majority_label == E and a.base_rate.value == pytest.approx(3 / 5)  # judge A's majority
    assert a.n_groups == 3  # the bootstrap resamples the 3 samples
    # 2-class view: Contradiction counts as not entailed: (B, A) EE NE NN EE EN -> 3 of 5 agree
    assert a.binary.agreement.value == pytest.approx(3 / 5)
    assert list(t.agreement) == ["answer2response"]  # only the kinds the run carries
    assert t.agreement_table()["kind"].tolist() == ["answer2response"]


def test_disagreement_mask_per_label_and_per_metric():
    a = scores([[E, E], [N, E], [C], [N]])
    b = scores([[E, E], [N, E], [N], [E]])  # q2: C -> N (3-class only), q3: N -> E
    t = two_judges(a, b, n_boot=50)
    assert t.disagree.tolist() == [False, False, True, True]
    assert t.disagreeing == ["q2", "q3"]
    # precision counts Contradiction as not entailed: q2's value does not move, q3's does
    assert t.disagree_by_metric["precision"].tolist() == [False, False, False, True]
    cols = t.columns()
    assert cols.loc["q3", "judges_disagree"] == 1 and cols.loc["q2", "judges_disagree_precision"] == 0


def test_disagreement_slices_work_in_the_explorer():
    ra = records([[E, E], [N, E], [C], [N]])
    t = two_judges(rw.evaluate(ra), scores([[E, E], [N, E], [N], [E]]), ("a", "b"), n_boot=50)
    frame = pd.DataFrame(ra).join(t.columns(), on="query_id")
    with pytest.warns(rw.errors.InputWarning):  # the loaders say the extra columns are not RAGChecker fields
        d = rw.DatasetExplorer(frame, slices=t.slices())
    sizes = {s["name"]: s["size"] for s in d.view_state["slices"]}
    assert sizes["judges a and b disagree"] == 2
    assert sizes["judges a and b disagree on precision"] == 1


def test_metrics_side_by_side_and_undefined_with_a_reason():
    a = scores([[E, E], [N, E]])
    b = scores([[None, None], [None, None]])  # judge b left every label unjudged
    t = two_judges(a, b, ("a", "b"), n_boot=50)
    row = t.metrics.loc["precision"]
    assert row["a"] == pytest.approx(0.75) and row["defined_a"] == 2
    assert row["b"] is None and row["defined_b"] == 0
    assert row["difference"] is None and row["ci_low"] is None
    assert "no sample is defined under judge 'b'" in row["reason"]
    t = two_judges(a, scores([[E, N], [N, N]]), ("a", "b"), n_boot=50)
    row = t.metrics.loc["precision"]
    assert row["difference"] == pytest.approx(0.25 - 0.75) and row["reason"] == "" and row["paired"] == 2


def test_not_the_same_run_names_the_sample_and_field():
    a = scores(A_LABELS)
    with pytest.raises(InputError, match=r"sample 1 \(query_id 'q1'\).*response_claims"):
        two_judges(a, scores(B_LABELS, claims=[[["s", "p", "o0"], ["s", "p", "o1"]],
                                                 [["s", "p", "o0"], ["x", "y", "z"]], [["s", "p", "o0"]]]))
    with pytest.raises(InputError, match=r"sample 2 \(query_id 'q2'\).*response_claims"):
        two_judges(a, scores([[E, N], [N, E], [E, E]]))
    other = records(B_LABELS)
    other[0]["query_id"] = "elsewhere"
    with pytest.raises(InputError, match=r"sample 0 \(query_id 'q0'\).*query_id"):
        two_judges(a, rw.evaluate(other))
    with pytest.raises(InputError, match="names"):
        two_judges(a, scores(B_LABELS), ("same", "same"))


def correlated(n, seed):
    """Per-sample precision under two judges that agree on most labels (4 claims a sample; A says
    Entailment with probability 0.6; B turns each of A's Entailment into Neutral with probability 0.1):
    the true difference of means is -0.06."""
    rng = np.random.default_rng(seed)
    a = rng.random((n, 4)) < 0.6
    b = a & (rng.random((n, 4)) >= 0.1)
    return a.mean(axis=1), b.mean(axis=1)


def test_paired_interval_covers_the_true_difference_and_is_narrower_than_unpaired():
    covered, ratios = 0, []
    for seed in range(40):
        va, vb = correlated(300, seed)
        defined = np.ones(len(va), dtype=bool)
        lo, hi = paired_difference(va, defined, vb, defined)
        covered += lo <= -0.06 <= hi
        unpaired = bootstrap_means(vb, 1000, seed + 1) - bootstrap_means(va, 1000, seed + 2)
        ulo, uhi = percentile_interval(unpaired)
        ratios.append((hi - lo) / (uhi - ulo))
    assert covered >= 34  # a 95% interval: 38 of 40 expected
    assert max(ratios) < 0.5  # the judges' shared per-question variation cancels


def test_paired_interval_through_two_judges():
    va, vb = correlated(200, 7)
    def labels(values):  # the same 4 claims a sample; value * 4 of them entailed
        return [[E] * int(round(v * 4)) + [N] * (4 - int(round(v * 4))) for v in values]
    t = two_judges(scores(labels(va)), scores(labels(vb)), n_boot=1000)
    row = t.metrics.loc["precision"]
    assert row["difference"] == pytest.approx(vb.mean() - va.mean())
    assert row["ci_low"] <= row["difference"] <= row["ci_high"] < 0


def test_paired_interval_skips_samples_undefined_on_one_side():
    va, vb = np.array([1.0, 0.5, np.nan, 0.0]), np.array([1.0, np.nan, 0.5, 0.0])
    lo, hi = paired_difference(va, ~np.isnan(va), vb, ~np.isnan(vb))
    assert lo <= (0.5 - 0.5) <= hi
    assert paired_difference(va, np.zeros(4, bool), vb, ~np.isnan(vb)) == (None, None)


def test_judges_that_never_differ_get_an_interval_of_width():
    """Two judges giving the same labels on 30 answers: the difference is 0, and its interval
    must allow the disagreements 30 answers cannot rule out (a percentile bootstrap: the point 0)."""
    labels = [[E, E, N]] * 30
    row = two_judges(scores(labels), scores(labels), n_boot=50).metrics.loc["precision"]
    assert row["difference"] == 0 and row["ci_low"] < -0.05 and row["ci_high"] > 0.05
