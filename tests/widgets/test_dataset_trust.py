"""The DatasetExplorer's trust panel (widgets/dataset/trust.py): per label kind the run has, the
confusion matrix (counts, row-normalised rates, 2-class view), per-class precision / recall / F1
and kappa beside the base rate; a confusion cell keeps its samples as the explorer's ``samples``
and the table shows exactly them. Every figure is checked against a count made here by hand
from the records and the reviews."""

import json

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.analysis.runs import Query
from ragwidgets.engine.metrics import format_value
from ragwidgets.reviews import Review, Reviews
from ragwidgets.widgets.dataset.core import ControlError

LABELS = ("Entailment", "Neutral", "Contradiction")


def run(n=30, seed=4, ground_truth=True):
    records = rw.datasets.synthetic_run(n, seed=seed)
    if not ground_truth:  # no ground-truth claims: the answer side's kinds are there but empty
        for r in records:
            r.update(gt_answer_claims=[], response2answer=[], retrieved2answer=[])
    return records


def reviews_of(records, k=40, seed=0):
    """``k`` random answer2response labels of ``records`` reviewed with random labels (the records'
    own label kept as the judge's)."""
    rng = np.random.default_rng(seed)
    cells = [(r["query_id"], c) for r in records for c in range(len(r["answer2response"]))]
    picked = rng.choice(len(cells), size=min(k, len(cells)), replace=False)
    return Reviews([Review(cells[i][0], "answer2response", cells[i][1], LABELS[rng.integers(3)]) for i in picked])


def ask(x, **message):
    sent = []
    x.send = lambda m, buffers=None: sent.append(m)
    x._handle_custom_msg({"request": 7, **message}, [])
    return sent[-1]


def by_hand(records, reviews, judge, reviewer, binary=False):
    """The query_ids with a reviewed answer2response label the judge said ``judge`` and the reviewer ``reviewer``."""
    judge_of = {r["query_id"]: r["answer2response"] for r in records}
    same = (lambda a, b: (a == "Entailment") == (b == "Entailment")) if binary else (lambda a, b: a == b)
    return sorted({r.query_id for r in reviews if r.kind == "answer2response"
                   and same(judge_of[r.query_id][r.claim], judge) and same(r.label, reviewer)}, key=int)


def kind_view(x, kind):
    return next(k for k in x.view_state["reviews"]["trust"]["kinds"] if k["kind"] == kind)


def test_the_panel_shows_only_the_kinds_the_run_has():
    with_gt = rw.DatasetExplorer(run())
    with_gt.trust_open = True
    trust = with_gt.view_state["reviews"]["trust"]
    assert [k["kind"] for k in trust["kinds"]] == ["answer2response", "response2answer", "retrieved2response",
                                                   "retrieved2answer"]
    without = rw.DatasetExplorer(run(ground_truth=False))
    without.trust_open = True
    trust = without.view_state["reviews"]["trust"]
    assert [k["kind"] for k in trust["kinds"]] == ["answer2response", "retrieved2response"]
    assert [r[0] for r in trust["agreement"]["rows"]] == ["answer2response", "retrieved2response"]
    # analysis keeps the empty kinds (their rows Undefined throughout); the panel leaves them out
    assert "response2answer" in set(without.trust()["agreement"].table["kind"])
    json.dumps(trust, allow_nan=False)


def test_the_matrix_rates_per_class_and_kappa_are_the_counts_made_by_hand():
    records = run()
    reviews = reviews_of(records)
    x = rw.DatasetExplorer(records, reviews=reviews)
    x.trust_open = True
    k = kind_view(x, "answer2response")
    judge_of = {r["query_id"]: r["answer2response"] for r in records}
    counts = np.zeros((3, 3), dtype=int)
    for r in reviews:
        counts[LABELS.index(judge_of[r.query_id][r.claim]), LABELS.index(r.label)] += 1
    assert k["classes"]["counts"] == counts.tolist() and k["n"] == counts.sum() == len(reviews)
    for i in range(3):
        row = counts[i].sum()
        assert k["classes"]["rates"][i] == [format_value(c / row) if row else None for c in counts[i]]
    assert k["classes"]["samples"] == [[len(by_hand(records, reviews, a, b)) for b in LABELS] for a in LABELS]
    binary = np.array([[counts[0, 0], counts[0, 1:].sum()], [counts[1:, 0].sum(), counts[1:, 1:].sum()]])
    assert k["binary"]["labels"] == ["Entailment", "not entailed"] and k["binary"]["counts"] == binary.tolist()
    for view, conf, labels in ((k["classes"], counts, LABELS), (k["binary"], binary, ("Entailment", "not entailed"))):
        n, po = conf.sum(), np.trace(conf) / conf.sum()
        pe = (conf.sum(1) * conf.sum(0)).sum() / n ** 2
        assert view["kappa"] == format_value((po - pe) / (1 - pe)) and view["agreement"] == format_value(po)
        top = int(np.argmax(conf.sum(0)))
        assert view["majority_label"] == labels[top] and view["base_rate"] == format_value(conf.sum(0)[top] / n)
        assert view["kappa_interval"] and " to " in view["kappa_interval"]
    per_class = [dict(zip(k["classes"]["per_class"]["columns"], row)) for row in k["classes"]["per_class"]["rows"]]
    for i, c in enumerate(per_class):
        tp, judged, truth = counts[i, i], counts[i].sum(), counts[:, i].sum()
        assert c["label"] == LABELS[i] and c["judge n"] == judged and c["reviewer n"] == truth
        assert c["precision"] == (format_value(tp / judged) if judged else None)
        assert c["recall"] == (format_value(tp / truth) if truth else None)
        assert c["F1"] == (format_value(2 * tp / (judged + truth)) if judged + truth else None)


@pytest.mark.parametrize("binary", [False, True])
def test_a_confusion_cell_filters_the_table_to_the_samples_holding_such_labels(binary):
    records = run()
    reviews = reviews_of(records)
    x = rw.DatasetExplorer(records, reviews=reviews)
    x.trust_open = True
    judge, reviewer = ("Entailment", "not entailed") if binary else ("Entailment", "Neutral")
    want = by_hand(records, reviews, judge, "Neutral" if binary else reviewer, binary=binary)
    assert want  # the seed gives such labels
    reply = ask(x, type="trust_cell", kind="answer2response", judge=judge, reviewer=reviewer, binary=binary)
    assert "error" not in reply and sorted(reply["query_ids"], key=int) == want
    n = len(want)
    assert reply["label"] == f"answer2response · judge {judge}, reviewer {reviewer}: {n} sample{'s' * (n != 1)}"
    x.set_state({"samples": {"label": reply["label"], "query_ids": reply["query_ids"]}})  # what trust.js sets
    assert sorted(x.filtered["query_id"], key=int) == want and x.view_state["count"] == n
    assert x.view_state["controls"]["samples"] == {"label": reply["label"], "n": n}
    x.set_state({"samples": {}})  # the chip's ✕
    assert x.view_state["count"] == len(records)


def test_the_samples_filter_joins_the_other_filters_and_bad_values_are_refused():
    x = rw.DatasetExplorer(run(), samples={"label": "three", "query_ids": ["1", "3", "5", "5"]})
    assert list(x.filtered["query_id"]) == ["1", "3", "5"] and x.samples["query_ids"] == ["1", "3", "5"]
    x.text = "case 3"
    assert list(x.filtered["query_id"]) == ["3"]
    for bad in ({"query_ids": "1"}, {"label": 2, "query_ids": []}, {"query_ids": [1]}, {"ids": []}):
        with pytest.raises(ControlError, match="samples must be"):
            x.samples = bad
    assert Query().samples == ()


def test_a_bad_cell_request_gets_an_error_naming_the_field():
    x = rw.DatasetExplorer(run())
    x.trust_open = True
    for message, field in (({"kind": "bogus", "judge": "Entailment", "reviewer": "Neutral"}, "kind"),
                           ({"kind": "answer2response", "judge": "Yes", "reviewer": "Neutral"}, "judge"),
                           ({"kind": "answer2response", "judge": "Entailment", "reviewer": "not entailed"}, "reviewer"),
                           ({"kind": "answer2response", "judge": "Entailment"}, "reviewer")):
        reply = ask(x, type="trust_cell", **message)
        assert field in reply["error"], reply


@pytest.mark.filterwarnings("ignore:comparing runs")
def test_several_runs_name_the_run_of_a_cell():
    a, b = run(seed=4), run(seed=5)
    reviews = {"a": reviews_of(a, seed=1), "b": reviews_of(b, seed=2)}
    x = rw.DatasetExplorer({"a": a, "b": b}, reviews=reviews)
    x.trust_open = True
    kinds = [(k["kind"], k["run"]) for k in x.view_state["reviews"]["trust"]["kinds"]]
    assert ("answer2response", "a") in kinds and ("answer2response", "b") in kinds
    reply = ask(x, type="trust_cell", kind="answer2response", judge="Neutral", reviewer="Entailment", run="b")
    assert reply["run"] == "b" and sorted(reply["query_ids"], key=int) == by_hand(b, reviews["b"], "Neutral", "Entailment")
    x.set_state({"run": "b", "samples": {"label": reply["label"], "query_ids": reply["query_ids"]}})
    assert set(x.filtered["run"]) == {"b"} and sorted(x.filtered["query_id"], key=int) == sorted(reply["query_ids"], key=int)


# -- as a team: reviewers' agreement, the labels in force, adjudication ------------------------

def team_reviews(records, names, k=30, seed=0):
    """The same ``k`` answer2response labels reviewed by each of ``names``: the first reviewer at
    random, each other agreeing with them two times in three (else at random)."""
    rng = np.random.default_rng(seed)
    cells = [(r["query_id"], c) for r in records for c in range(len(r["answer2response"]))][:k]
    first = [LABELS[rng.integers(3)] for _ in cells]
    out = []
    for i, name in enumerate(names):
        labels = first if i == 0 else [a if rng.random() < 2 / 3 else LABELS[rng.integers(3)] for a in first]
        out += [Review(q, "answer2response", c, label, reviewer=name)
                for (q, c), label in zip(cells, labels)]
    return Reviews(out)


def labels_of(reviews, name):
    return {r.key: r.label for r in reviews.of_reviewer(name)}


def team_row(x, kind="answer2response"):
    t = x.view_state["reviews"]["trust"]["team"]["runs"][""]["table"]
    return next(dict(zip(t["columns"], row)) for row in t["rows"] if row[0] == kind)


def test_two_reviewers_show_cohen_s_kappa_between_them_counted_by_hand():
    records = run()
    reviews = team_reviews(records, ["ann", "bo"])
    x = rw.DatasetExplorer(records, reviews=reviews, reviewer="cy")
    x.trust_open = True
    team = x.view_state["reviews"]["trust"]["team"]
    assert team["reviewers"] == ["ann", "bo"] and team["use"] == "adjudicated"
    a, b = labels_of(reviews, "ann"), labels_of(reviews, "bo")
    conf = np.zeros((3, 3))
    for key in a:
        conf[LABELS.index(a[key]), LABELS.index(b[key])] += 1
    n, po = conf.sum(), np.trace(conf) / conf.sum()
    pe = (conf.sum(1) * conf.sum(0)).sum() / n ** 2
    row = team_row(x)
    assert row["reviewers"] == "ann, bo" and row["labels"] == len(a) == n
    assert row["agreement"] == format_value(po) and row["Cohen's kappa"] == format_value((po - pe) / (1 - pe))
    assert row["Krippendorff's alpha"] is not None and " to " in row["alpha 95%"]


def test_three_reviewers_show_krippendorff_s_alpha_as_the_reference_package_computes_it():
    krippendorff = pytest.importorskip("krippendorff")
    records = run()
    names = ["ann", "bo", "cy"]
    reviews = team_reviews(records, names, seed=3)
    x = rw.DatasetExplorer(records, reviews=reviews)
    x.trust_open = True
    labels = [labels_of(reviews, n) for n in names]
    data = np.array([[LABELS.index(m[key]) for key in labels[0]] for m in labels], dtype=float)
    row = team_row(x)
    assert row["reviewers"] == "ann, bo, cy"
    assert row["Krippendorff's alpha"] == format_value(krippendorff.alpha(reliability_data=data,
                                                                           level_of_measurement="nominal"))
    assert row["Cohen's kappa"] is None and "exactly two" in row["reason"]  # Undefined, said why
    pairs = x.view_state["reviews"]["trust"]["team"]["runs"][""]["pairs"]
    assert [r[1] for r in pairs["rows"]] == ["ann · bo", "ann · cy", "bo · cy"]


def test_one_reviewer_shows_no_team_part_and_no_adjudication():
    records = run()
    x = rw.DatasetExplorer(records, reviews=reviews_of(records))
    x.trust_open = True
    assert x.view_state["reviews"]["trust"]["team"] is None and x.view_state["adjudicate"] is None


def test_the_labels_in_force_choose_whose_labels_agreement_and_corrected_use():
    records = run()
    reviews = team_reviews(records, ["ann", "bo"])
    x = rw.DatasetExplorer(records, reviews=reviews)
    x.trust_open = True
    judge_of = {r["query_id"]: r["answer2response"] for r in records}
    for name in ("ann", "bo"):
        assert "error" not in ask(x, type="trust_use", use=name)
        counts = np.zeros((3, 3), dtype=int)
        for (q, _, c, _), label in labels_of(reviews, name).items():
            counts[LABELS.index(judge_of[q][c]), LABELS.index(label)] += 1
        assert kind_view(x, "answer2response")["classes"]["counts"] == counts.tolist()
        assert x.view_state["reviews"]["trust"]["team"]["use"] == name
    ask(x, type="trust_use", use="ann")
    ann_corrected = x.view_state["reviews"]["trust"]["corrected"][""]
    ask(x, type="trust_use", use="bo")
    assert x.view_state["reviews"]["trust"]["corrected"][""] != ann_corrected
    reply = ask(x, type="trust_use", use="dan")
    assert "'ann', 'bo'" in reply["error"] and x.view_state["reviews"]["trust"]["team"]["use"] == "bo"


def test_adjudication_lists_the_disagreements_and_writes_one_adjudicated_line(tmp_path):
    records = run()
    path = tmp_path / "reviews.jsonl"
    reviews = team_reviews(records, ["ann", "bo"])
    path.write_text("".join(json.dumps(r.to_json()) + "\n" for r in reviews.history))
    x = rw.DatasetExplorer(records, reviews=str(path), reviewer="cy")
    x.trust_open = True
    a, b = labels_of(reviews, "ann"), labels_of(reviews, "bo")
    differ = [key for key in a if a[key] != b[key]]
    view = x.view_state["adjudicate"]
    assert view["reviewers"] == ["ann", "bo"] and view["total"] == len(differ) and view["decided"] == 0
    assert [(d["query_id"], d["kind"], d["claim"], d["doc_id"]) for d in view["rows"]] == differ
    assert view["query_ids"] == list(dict.fromkeys(key[0] for key in differ))
    first = view["rows"][0]
    key = differ[0]
    assert first["labels"] == {"ann": a[key], "bo": b[key]} and first["adjudicated"] is None
    claim = next(r for r in records if r["query_id"] == key[0])["response_claims"][key[2]]
    assert first["claim_text"] == " ".join(claim)
    assert first["row"] == list(x.frame["query_id"]).index(key[0])
    before = x.view_state["reviews"]["trust"]["corrected"][""]
    lines = len(path.read_text().splitlines())
    decided = next(lab for lab in LABELS if lab not in (a[key], b[key])) if a[key] != b[key] else a[key]
    reply = ask(x, type="adjudicate", query_id=key[0], kind=key[1], claim=key[2], doc_id=None, label=decided)
    assert "error" not in reply and reply["said"].startswith(f"Decided {decided}")
    written = path.read_text().splitlines()
    assert len(written) == lines + 1
    last = json.loads(written[-1])
    assert last["adjudicated"] is True and last["reviewer"] == "cy" and last["label"] == decided
    assert (last["query_id"], last["kind"], last["claim"]) == key[:3] and last["adjudicated"]
    assert x.reviews.latest[key].adjudicated and x.reviews.latest[key].label == decided
    view = x.view_state["adjudicate"]
    assert view["decided"] == 1 and view["rows"][0]["adjudicated"] == decided
    assert x.view_state["reviews"]["trust"]["stale"]
    ask(x, type="trust", open=True)  # as the front end does after a pause
    after = x.view_state["reviews"]["trust"]["corrected"][""]
    assert after != before  # corrected uses the adjudicated label
    again = rw.DatasetExplorer(records, reviews=str(path))  # the file holds the decision
    assert again.reviews.latest[key].label == decided and again.reviews.latest[key].adjudicated


def test_only_a_disagreement_can_be_adjudicated():
    records = run()
    reviews = team_reviews(records, ["ann", "bo"])
    x = rw.DatasetExplorer(records, reviews=reviews, reviewer="cy")
    a, b = labels_of(reviews, "ann"), labels_of(reviews, "bo")
    same = next(key for key in a if a[key] == b[key])
    reply = ask(x, type="adjudicate", query_id=same[0], kind=same[1], claim=same[2], label="Neutral")
    assert "not a label the reviewers disagree on" in reply["error"]
    differ = next(key for key in a if a[key] != b[key])
    reply = ask(x, type="adjudicate", query_id=differ[0], kind=differ[1], claim=differ[2], label="Maybe")
    assert "label must be one of" in reply["error"]
    for bad, said in (({"claim": [1]}, "claim must be a whole number ≥ 0, not [1]"),
                      ({"claim": "0"}, "claim must be a whole number ≥ 0, not '0'"),
                      ({"kind": "answers"}, "kind must be one of answer2response"),
                      ({"doc_id": 7}, "doc_id must be a passage's id or None, not 7")):
        message = dict(type="adjudicate", query_id=differ[0], kind=differ[1], claim=differ[2], label="Neutral") | bad
        assert said in ask(x, **message)["error"]


@pytest.mark.filterwarnings("ignore:comparing runs")
def test_several_runs_one_reviewed_by_a_team():
    records = run()
    reviews = team_reviews(records, ["ann", "bo"])
    x = rw.DatasetExplorer({"a": records, "b": run(seed=5)}, reviews={"a": reviews, "b": Reviews()}, reviewer="cy")
    x.trust_open = True
    team = x.view_state["reviews"]["trust"]["team"]
    assert team["reviewers"] == ["ann", "bo"] and list(team["runs"]) == ["a"]  # b has no reviews: no say
    assert "error" not in ask(x, type="trust_use", use="ann")
    judge_of = {r["query_id"]: r["answer2response"] for r in records}
    counts = np.zeros((3, 3), dtype=int)
    for (q, _, c, _), label in labels_of(reviews, "ann").items():
        counts[LABELS.index(judge_of[q][c]), LABELS.index(label)] += 1
    a = next(k for k in x.view_state["reviews"]["trust"]["kinds"] if k["kind"] == "answer2response" and k["run"] == "a")
    assert a["classes"]["counts"] == counts.tolist()
    rows = x.view_state["adjudicate"]["rows"]
    assert rows and {d["run"] for d in rows} == {"a"} and all(x.frame["run"].iat[d["row"]] == "a" for d in rows)
    d = rows[0]
    reply = ask(x, type="adjudicate", run="a", query_id=d["query_id"], kind=d["kind"], claim=d["claim"], label="Neutral")
    assert "error" not in reply and x.view_state["adjudicate"]["decided"] == 1


def test_an_unnamed_reviewer_can_be_put_in_force():
    records = run()
    reviews = team_reviews(records, ["", "bo"])
    x = rw.DatasetExplorer(records, reviews=reviews)
    x.trust_open = True
    team = x.view_state["reviews"]["trust"]["team"]
    assert team["reviewers"] == ["", "bo"] and team_row(x)["reviewers"] == "(unnamed), bo"
    assert "error" not in ask(x, type="trust_use", use="")
    assert x.view_state["reviews"]["trust"]["team"]["use"] == ""
    assert "use must be" in ask(x, type="trust_use", use=None)["error"]


def test_a_run_model_without_the_samples_filter_refuses_it_by_name():
    x = rw.DatasetExplorer(run())
    x.model.capabilities = x.model.capabilities - {"samples"}  # as a Dask-scored run's model is
    with pytest.raises(ControlError, match="keeping chosen samples is not available on"):
        x.samples = {"label": "two", "query_ids": ["1", "2"]}
    x.samples = {}  # none chosen: fine anywhere


def test_reviewers_named_like_columns_open_and_list_their_disagreements():
    """Reviewer names come from a file: 'claim' and 'adjudicated' are names like any other."""
    records = run()
    reviews = team_reviews(records, ["claim", "adjudicated"])
    x = rw.DatasetExplorer(records, reviews=reviews)
    view = x.view_state["adjudicate"]
    assert view["reviewers"] == ["adjudicated", "claim"] and view["rows"]
    assert set(view["rows"][0]["labels"]) == {"adjudicated", "claim"}
    assert isinstance(view["rows"][0]["claim"], int)
