"""Reviewing as a team: Krippendorff's alpha against the krippendorff package and Krippendorff's
own worked example, Cohen's kappa by hand, the per-kind table and pairs, the disagreements
table, and agreement / corrected reading the label in force for ``use``."""

import json

import numpy as np
import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets.analysis import agreement, corrected, disagreements, reviewer_agreement
from ragwidgets.analysis.team import alpha_interval, alpha_of, coincidences, krippendorff_alpha
from ragwidgets.errors import InputError
from ragwidgets.reviews import Review, Reviews

krippendorff = pytest.importorskip("krippendorff")

E, N, C = "Entailment", "Neutral", "Contradiction"
LABELS = (E, N, C)


def reference(values, k=3) -> float:
    """The krippendorff package's nominal alpha of units × coders (-1 missing)."""
    data = np.where(np.asarray(values) < 0, np.nan, np.asarray(values, dtype=float)).T  # coders × units
    return krippendorff.alpha(reliability_data=data, level_of_measurement="nominal", value_domain=list(range(k)))


def test_alpha_of_krippendorffs_worked_example():
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability", section C: 4 coders, 12 units,
    # nominal data with missing values; alpha = 0.743
    nan = np.nan
    coders = np.array([[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
                       [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
                       [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
                       [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]])
    units = coders.T - 1  # class indices 0..4, NaN missing
    assert krippendorff_alpha(units) == pytest.approx(0.743, abs=5e-4)
    assert krippendorff_alpha(units) == pytest.approx(reference(np.nan_to_num(units, nan=-1), 5), abs=1e-12)


@pytest.mark.parametrize("coders", [2, 3, 4, 5])
def test_alpha_equals_the_krippendorff_package_on_random_data(coders):
    rng = np.random.default_rng(coders)
    for trial in range(40):
        units = int(rng.integers(2, 60))
        truth = rng.choice(3, size=units, p=[0.7, 0.2, 0.1])
        noisy = rng.random((units, coders)) < rng.uniform(0, 0.8)
        values = np.where(noisy, rng.integers(0, 3, size=(units, coders)), truth[:, None])
        values[rng.random((units, coders)) < rng.uniform(0, 0.5)] = -1  # missing values
        mine = krippendorff_alpha(values)
        pairable = ((values >= 0).sum(axis=1) >= 2).any()
        used = {int(v) for row in values if (row >= 0).sum() >= 2 for v in row if v >= 0}
        if not pairable or len(used) < 2:
            assert mine is None
            continue
        assert mine == pytest.approx(reference(values), abs=1e-10), (coders, trial)


def test_alpha_of_a_single_class_is_undefined():
    values = np.array([[0, 0], [0, 0], [0, -1], [0, 0]])
    assert krippendorff_alpha(values) is None
    with np.errstate(invalid="ignore"):
        assert np.isnan(reference(values))  # the package agrees: 0 / 0
    assert krippendorff_alpha(np.array([[0, -1], [-1, 1]])) is None  # no label reviewed twice


def test_coincidences_add_one_over_m_minus_one_per_ordered_pair():
    o = coincidences(np.array([[0, 0, 1]]), 3)[0]  # values 0, 0, 1: m = 3, pairs weighted 1/2
    assert o.tolist() == [[1.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    assert o.sum() == 3  # each pairable value once
    assert np.isnan(alpha_of(np.zeros((3, 3))))


def team(rows) -> Reviews:
    """Reviews from (query_id, claim, reviewer, label[, adjudicated]) of answer2response labels."""
    out = []
    for row in rows:
        qid, claim, who, label, *adj = row
        out.append(Review(query_id=qid, kind="answer2response", claim=claim, label=label, reviewer=who,
                          adjudicated=bool(adj and adj[0])))
    return Reviews(out)


def two_reviewers(n=40, seed=0):
    rng = np.random.default_rng(seed)
    rows, a, b, q = [], [], [], []
    for i in range(n):
        qid, claim = f"q{i // 3}", i % 3
        la = LABELS[rng.choice(3, p=[0.6, 0.3, 0.1])]
        lb = la if rng.random() < 0.7 else LABELS[rng.integers(3)]
        rows += [(qid, claim, "ann", la), (qid, claim, "bob", lb)]
        a.append(la), b.append(lb), q.append(qid)
    return rows, a, b, q


def test_two_reviewers_kappa_by_hand_and_alpha_by_the_package():
    rows, a, b, q = two_reviewers()
    rows.append(("q0", 0, "ann", C))  # ann changes her mind: her latest label counts
    a[0] = C
    rows.append(("q0", 0, "dee", E, True))  # an adjudication: no reviewer's judgement, left out
    rows.append(("q99", 0, "ann", N))  # reviewed once: not a shared label
    result = reviewer_agreement(team(rows))
    row = result.table.set_index("kind").loc["answer2response"]
    assert row["reviewers"] == ["ann", "bob"] and row["n_labels"] == 40 and row["n_samples"] == len(set(q))
    conf = pd.crosstab(pd.Categorical(a, LABELS), pd.Categorical(b, LABELS), dropna=False).to_numpy()
    po = np.trace(conf) / conf.sum()
    pe = (conf.sum(axis=1) * conf.sum(axis=0)).sum() / conf.sum() ** 2
    assert row["agreement"] == pytest.approx(po)
    assert row["kappa"] == pytest.approx((po - pe) / (1 - pe))
    assert row["kappa_low"] <= row["kappa"] <= row["kappa_high"]
    codes = {lab: i for i, lab in enumerate(LABELS)}
    values = np.array([[codes[x], codes[y]] for x, y in zip(a, b)])
    assert row["alpha"] == pytest.approx(reference(values), abs=1e-12)
    assert row["alpha_low"] <= row["alpha"] <= row["alpha_high"]
    per_sample = np.zeros((len(set(q)), 3, 3))  # the interval is alpha_interval's (what the coverage test checks)
    np.add.at(per_sample, np.unique(np.asarray(q), return_inverse=True)[1], coincidences(values, 3))  # sorted ids
    assert (row["alpha_low"], row["alpha_high"]) == pytest.approx(alpha_interval(per_sample))
    assert row["reason"] == ""
    assert result.reviewers == ["ann", "bob"]
    (pair,) = result.pairs.to_dict("records")
    assert (pair["reviewer_a"], pair["reviewer_b"], pair["n_labels"]) == ("ann", "bob", 40)
    assert pair["kappa"] == pytest.approx(row["kappa"])
    view = result.to_view()
    assert view["rows"][0]["alpha"] == pytest.approx(row["alpha"]) and view["reviewers"] == ["ann", "bob"]
    assert json.loads(json.dumps(view, allow_nan=False)) == view  # plain JSON: no NaN, no numpy types
    assert json.dumps(reviewer_agreement(Reviews()).to_view(), allow_nan=False)
    assert reviewer_agreement(team(rows), seed=3).table["alpha_low"][0] != pytest.approx(row["alpha_low"], abs=0)


def test_three_reviewers_alpha_with_missing_values_and_kappa_per_pair():
    rng = np.random.default_rng(5)
    rows, values = [], []
    names = ["ann", "bob", "cy"]
    for i in range(60):
        truth = rng.choice(3, p=[0.5, 0.3, 0.2])
        unit = []
        for who in names:
            if rng.random() < 0.25:
                unit.append(-1)
                continue
            lab = truth if rng.random() < 0.75 else rng.integers(3)
            unit.append(int(lab))
            rows.append((f"q{i // 4}", i % 4, who, LABELS[lab]))
        values.append(unit)
    values = np.array(values)
    result = reviewer_agreement(team(rows))
    row = result.table.iloc[0]
    assert row["n_reviewers"] == 3 and row["kappa"] is None and "exactly two reviewers" in row["reason"]
    assert row["alpha"] == pytest.approx(reference(values), abs=1e-12)
    assert row["n_labels"] == int(((values >= 0).sum(axis=1) >= 2).sum())
    assert len(result.pairs) == 3
    for pair in result.pairs.to_dict("records"):
        i, j = names.index(pair["reviewer_a"]), names.index(pair["reviewer_b"])
        both = (values[:, i] >= 0) & (values[:, j] >= 0)
        x, y = values[both, i], values[both, j]
        po = (x == y).mean()
        pe = sum((x == k).mean() * (y == k).mean() for k in range(3))
        assert pair["n_labels"] == both.sum() and pair["kappa"] == pytest.approx((po - pe) / (1 - pe))


def test_undefined_rows_say_why():
    one = reviewer_agreement(team([("q1", 0, "ann", E), ("q1", 1, "ann", N)]))
    row = one.table.iloc[0]
    assert row["alpha"] is None and row["kappa"] is None and row["n_labels"] == 0
    assert "1 reviewer(s)" in row["reason"] and one.pairs.empty
    same = reviewer_agreement(team([("q1", 0, "ann", E), ("q1", 0, "bob", E), ("q2", 0, "ann", E),
                                    ("q2", 0, "bob", E)]))
    row = same.table.iloc[0]
    assert row["agreement"] == 1.0 and row["alpha"] is None and "one and the same class" in row["reason"]
    assert row["kappa"] is None and "chance agreement is 1" in row["reason"]
    single = reviewer_agreement(team([("q1", 0, "ann", E), ("q1", 0, "bob", N), ("q1", 1, "ann", N),
                                      ("q1", 1, "bob", N)]))
    row = single.table.iloc[0]
    assert row["alpha"] is not None and row["alpha_low"] is None and "one sample" in row["reason"]
    asked = reviewer_agreement(team([("q1", 0, "ann", E)]), kinds=["response2answer"])
    assert asked.table["kind"].tolist() == ["response2answer"] and asked.table["n_reviewers"][0] == 0
    with pytest.raises(InputError, match="label kinds") as err:
        reviewer_agreement(Reviews(), kinds=["answer2answer"])
    assert err.value.field == "kinds"
    assert reviewer_agreement(Reviews()).table.empty


def test_disagreements_lists_each_reviewers_label_and_the_decision():
    reviews = team([("q2", 0, "bob", C), ("q1", 0, "ann", E), ("q1", 0, "bob", N), ("q1", 1, "ann", E),
                    ("q1", 1, "bob", E), ("q2", 0, "cy", E), ("q2", 0, "ann", C),
                    ("q1", 0, "dee", N, True), ("q3", 0, "ann", N)])
    frame = disagreements(reviews)
    assert list(frame.columns) == ["query_id", "kind", "claim", "doc_id", "labels", "adjudicated"]
    assert frame.attrs["reviewers"] == ["ann", "bob", "cy"]
    assert frame[["query_id", "claim"]].values.tolist() == [["q2", 0], ["q1", 0]]  # first reviewed first
    assert frame.loc[1, "labels"] == {"ann": E, "bob": N, "cy": None} and frame.loc[1, "adjudicated"] == N
    assert frame.loc[0, "labels"] == {"ann": C, "bob": C, "cy": E} and frame.loc[0, "adjudicated"] is None
    assert frame["doc_id"].tolist() == [None, None]
    passage = Reviews([Review(query_id="q1", kind="retrieved2response", claim=0, doc_id="d0", label=E,
                              reviewer="ann"),
                       Review(query_id="q1", kind="retrieved2response", claim=0, doc_id="d0", label=N,
                              reviewer="bob")])
    assert disagreements(passage)["doc_id"].tolist() == ["d0"]
    named_like_columns = disagreements(team([("q1", 0, "adjudicated", E), ("q1", 0, "claim", N)]))  # names from a file
    assert named_like_columns.loc[0, "labels"] == {"adjudicated": E, "claim": N}
    assert named_like_columns.loc[0, "claim"] == 0 and named_like_columns.loc[0, "adjudicated"] is None
    assert disagreements(Reviews()).empty


RECORD = {
    "query_id": "q1", "query": "Where?", "gt_answer": "Paris is in France.", "response": "Paris, in France.",
    "retrieved_context": [{"doc_id": "d0", "text": "Paris is in France."}],
    "response_claims": [["Paris", "is in", "France"], ["Paris", "is", "big"]],
    "gt_answer_claims": [["Paris", "is in", "France"]],
    "answer2response": [E, N], "response2answer": [E],
    "retrieved2response": [[E], [N]], "retrieved2answer": [[E]],
}


def test_agreement_and_corrected_use_the_adjudicated_or_a_chosen_reviewers_label():
    records = [dict(RECORD, query_id=f"q{i}") for i in range(6)]
    scores = rw.evaluate(records)
    ann = lambda i: [(f"q{i}", 0, "ann", E), (f"q{i}", 1, "ann", N)]  # noqa: E731 (confirms the judge)
    bob = lambda i: [(f"q{i}", 0, "bob", N), (f"q{i}", 1, "bob", N)]  # noqa: E731 (claim 0 not entailed)
    rows = [row for i in range(6) for row in (ann(i) + bob(i) if i < 3 else bob(i) + ann(i))]
    rows.append(("q0", 0, "dee", E, True))  # dee decides for ann on q0
    reviews = team(rows)  # in force: q0 dee's E, q1 q2 bob's N, q3..q5 ann's E

    def figures(use):
        row = agreement(scores, reviews, use=use).table.set_index("kind").loc["answer2response"]
        mean = corrected(scores, reviews, metrics=["precision"], use=use).loc["precision", "reviewed_mean"]
        return row["n"], row["agreement"], mean

    assert figures("ann") == (12, 1.0, pytest.approx(0.5))
    assert figures("bob") == (12, pytest.approx(6 / 12), pytest.approx(0))  # bob's own labels: dee's decision is no one's
    assert figures("adjudicated") == (12, pytest.approx(10 / 12), pytest.approx(2 / 6))
    bob_alone = reviews.of_reviewer("bob")
    assert agreement(scores, bob_alone).table["agreement"][0] == pytest.approx(6 / 12)
    reviewed = rw.evaluate(records, reviews=reviews)  # scores carrying their reviews: use re-resolves them
    for use, mean in (("bob", 0), ("adjudicated", 2 / 6)):
        got = corrected(reviewed, metrics=["precision"], use=use).loc["precision", "reviewed_mean"]
        assert got == pytest.approx(mean)
    with pytest.raises(InputError, match="'ann', 'bob'") as err:
        agreement(scores, reviews, use="zed")
    assert err.value.field == "use"


def test_exported_from_the_analysis_package():
    assert {"reviewer_agreement", "disagreements"} <= set(rw.analysis.__all__)
    assert rw.analysis.reviewer_agreement is reviewer_agreement


def test_alpha_equals_the_package_per_kind_over_all_kinds():
    rng = np.random.default_rng(11)
    reviews = []
    expected = {}
    for kind in ("answer2response", "response2answer"):
        values = rng.integers(0, 3, size=(30, 4))
        values[rng.random(values.shape) < 0.3] = -1
        for u, unit in enumerate(values):
            for c, v in enumerate(unit):
                if v >= 0:
                    reviews.append(Review(query_id=f"q{u // 2}", kind=kind, claim=u % 2, label=LABELS[v],
                                          reviewer=f"r{c}"))
        expected[kind] = reference(values)
    table = reviewer_agreement(Reviews(reviews)).table.set_index("kind")
    assert list(table.index) == ["answer2response", "response2answer"]
    for kind, value in expected.items():
        assert table.loc[kind, "alpha"] == pytest.approx(value, abs=1e-12)


def test_a_queue_marks_a_random_share_for_a_second_review():
    from ragwidgets.analysis import progress, review_queue
    scores = rw.evaluate([dict(RECORD, query_id=f"q{i}") for i in range(100)])
    plain = review_queue(scores, 25, seed=4)
    assert plain.double == [] and not plain.frame["double"].any()
    counts = []
    for seed in range(400):
        q = review_queue(scores, 25, seed=seed, double=0.1)
        assert q.query_ids == review_queue(scores, 25, seed=seed).query_ids  # the same queue, the same design
        assert q.double == [qid for qid, d in zip(q.query_ids, q.frame["double"]) if d]
        assert len(q.double) in (2, 3) and set(q.double) <= set(q.query_ids)
        counts.append(len(q.double))
    # 2.5 expected, rounded at random: the share is 3 with probability 1/2; 400 draws: sd of the mean 0.025
    assert np.mean(counts) == pytest.approx(2.5, abs=4 * 0.025)
    assert review_queue(scores, 25, seed=1, double=1.0).double == review_queue(scores, 25, seed=1).query_ids
    assert review_queue(scores, 25, seed=1, double=0.5).to_view()["double"] == \
        review_queue(scores, 25, seed=1, double=0.5).double
    for bad in (-0.1, 1.5, "10%", True):
        with pytest.raises(ValueError, match="double"):
            review_queue(scores, 5, double=bad)

    q = review_queue(scores, 4, seed=0, double=0.5)
    once, twice = [x for x in q.query_ids if x not in q.double], q.double
    assert len(twice) == 2

    def all_labels(qids, who, adjudicated=False):
        out = []
        for qid in qids:
            out += [Review(query_id=qid, kind=kind, claim=c, label=E, reviewer=who, adjudicated=adjudicated)
                    for kind, claims in (("answer2response", 2), ("response2answer", 1)) for c in range(claims)]
            out += [Review(query_id=qid, kind=kind, claim=c, doc_id="d0", label=E, reviewer=who,
                           adjudicated=adjudicated)
                    for kind, claims in (("retrieved2response", 2), ("retrieved2answer", 1)) for c in range(claims)]
        return out

    first = all_labels(q.query_ids, "ann")
    assert progress(q, Reviews(first)) == (2, 4)  # the double ones wait for a second reviewer
    assert progress(q, Reviews(first + all_labels(twice, "ann"))) == (2, 4)  # the same reviewer again
    assert progress(q, Reviews(first + all_labels(twice, "dee", adjudicated=True))) == (2, 4)  # no reviewer
    assert progress(q, Reviews(first + all_labels(twice[:1], "bob"))) == (3, 4)
    assert progress(q, Reviews(first + all_labels(twice, "bob"))) == (4, 4)
    assert progress(q, rw.evaluate([dict(RECORD, query_id=f"q{i}") for i in range(100)],
                                   reviews=Reviews(first + all_labels(twice, "bob")))) == (4, 4)
    table = corrected(scores, Reviews(first + all_labels(twice, "bob")), metrics=["precision"], design=q)
    assert table.loc["precision", "n_reviewed"] == 4


def test_a_second_reviewers_queue_draws_a_share_of_the_others_reviews_back():
    from ragwidgets.analysis import review_queue

    def labels(qid, who):
        return [Review(query_id=qid, kind="answer2response", claim=c, label=E, reviewer=who) for c in range(2)] + \
            [Review(query_id=qid, kind="response2answer", claim=0, label=E, reviewer=who)] + \
            [Review(query_id=qid, kind=k, claim=c, doc_id="d0", label=E, reviewer=who)
             for k, n in (("retrieved2response", 2), ("retrieved2answer", 1)) for c in range(n)]

    scores = rw.evaluate([dict(RECORD, query_id=f"q{i}") for i in range(100)])
    by_ann = [f"q{i}" for i in range(40)]
    mine, both = ["q40", "q41"], ["q42"]
    reviews = Reviews([r for q in by_ann for r in labels(q, "ann")] + [r for q in mine for r in labels(q, "bob")]
                      + [r for q in both for r in labels(q, "ann") + labels(q, "cy")])
    fresh = {f"q{i}" for i in range(43, 100)}
    assert set(review_queue(scores, 1000, reviews=reviews, double=1.0).query_ids) == fresh  # no reviewer: as before
    assert set(review_queue(scores, 1000, reviews=reviews, reviewer="bob").query_ids) == fresh  # double 0: none back
    everything = review_queue(scores, 1000, reviews=reviews, reviewer="bob", double=1.0)
    assert set(everything.query_ids) == fresh | set(by_ann)  # not bob's own, not those two reviewed
    assert set(by_ann) <= set(everything.double)
    assert all(w.startswith("second review: ") == (q in by_ann)
               for q, w in zip(everything.query_ids, everything.frame["why"]))
    assert set(review_queue(scores, 1000, reviews=reviews, reviewer="ann", double=1.0).query_ids) == fresh | set(mine)
    back = [len(set(review_queue(scores, 1000, reviews=reviews, reviewer="bob", double=0.25, seed=s).query_ids)
                & set(by_ann)) for s in range(400)]
    # each of ann's 40 comes back with probability 0.25: 10 expected; the sd of the mean over 400
    # seeds is √(40 · 0.25 · 0.75 / 400) ≈ 0.14
    assert np.mean(back) == pytest.approx(10, abs=4 * 0.14)
    q = review_queue(scores, 10, reviews=reviews, reviewer="bob", double=0.25, seed=3)
    assert len(q) == 10 and set(q.query_ids) <= fresh | set(by_ann)
