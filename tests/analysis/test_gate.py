"""The regression gate (issue 38): every verdict and exit code, its numbers against compare_runs
and against formulas written out here, the judge's variance by hand, Holm by hand, bad input,
the A/A check, and RefChecker's seven systems."""

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm
from scipy.stats import t as student_t

import ragwidgets as rw
from ragwidgets.analysis import VERDICTS, aa_false_alarms, compare_runs, gate, run_table
from ragwidgets.analysis.gate import direction
from ragwidgets.datasets.refchecker import refchecker_human
from ragwidgets.datasets.synthetic import synthetic_run
from ragwidgets.errors import InputError
from ragwidgets.judges.repeats import combine


def _frame(n=200, seed=0, **columns):
    """Per-sample values: each keyword a metric and a function of the rng giving n values."""
    rng = np.random.default_rng(seed)
    index = pd.Index([f"q{i}" for i in range(n)], name="query_id")
    return pd.DataFrame({m: f(rng, n) for m, f in columns.items()}, index=index)


def _faith(shift=0.0):
    return lambda rng, n: np.clip(rng.beta(4, 1, n) + shift, 0, 1)


def _row(g, metric):
    return g.frame.set_index("metric").loc[metric]


def test_direction_comes_from_the_metric_definitions():
    assert [direction(m) for m in ("hallucination", "noise_sensitivity_in_relevant", "required_hallucination",
                                   "faithfulness", "precision", "my_own_metric")] == \
        ["lower", "lower", "lower", "higher", "higher", "higher"]


def test_without_repeats_or_margin_the_numbers_are_compare_runs():
    """Differential: difference, interval, p and Holm's p equal compare_runs' on an 11-metric run pair
    (rare metrics included)."""
    base, new = rw.evaluate(synthetic_run(200, seed=1)), rw.evaluate(synthetic_run(200, seed=1, quality=0.3))
    g = gate(base, new, min_shared=1).frame.set_index("metric")
    ref = compare_runs({"base": run_table(base), "new": run_table(new)}).summary.set_index("metric")
    assert list(g.index) == list(ref.index) and len(g) == 11
    for ours, theirs in (("difference", "difference"), ("lo", "ci_low"), ("hi", "ci_high"), ("shared", "paired"),
                         ("base_mean", "baseline_mean"), ("new_mean", "mean")):
        np.testing.assert_allclose(g[ours].to_numpy(float), ref[theirs].to_numpy(float), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(g["p"].to_numpy(float), ref["p_value"].to_numpy(float), atol=1e-6)
    np.testing.assert_allclose(g["p_adjusted"].to_numpy(float), ref["p_adjusted"].to_numpy(float), atol=1e-6)
    assert g["verdict"].isin(["worse", "better"]).tolist() == ref["differs"].tolist()


def test_a_continuous_metric_s_interval_and_mde_are_the_normal_formulas():
    """At n = 2,000 the paired interval is d ± z·sd/√n and the MDE (z_{1−α/2} + z_{0.8})·sd/√n,
    both written out here (one metric: no adjustment)."""
    base = _frame(2000, 1, faithfulness=_faith())
    new = base.assign(faithfulness=np.clip(base["faithfulness"] + np.random.default_rng(2).normal(0, .1, 2000), 0, 1))
    row = _row(gate(base, new), "faithfulness")
    d = new["faithfulness"] - base["faithfulness"]
    se = d.std(ddof=1) / math.sqrt(len(d))
    assert row["difference"] == pytest.approx(d.mean())
    assert (row["lo"], row["hi"]) == pytest.approx((d.mean() - 1.96 * se, d.mean() + 1.96 * se), rel=0.03, abs=2e-4)
    assert row["mde"] == pytest.approx((norm.ppf(0.975) + norm.ppf(0.8)) * se, rel=0.03)


def test_worse_better_and_no_detectable_change_each_way():
    base = _frame(300, 0, faithfulness=_faith(), hallucination=lambda r, n: (r.random(n) < .05) * 1.0)
    worse = base.assign(faithfulness=base["faithfulness"] - 0.1, hallucination=np.maximum(
        base["hallucination"], (np.random.default_rng(3).random(300) < .15) * 1.0))
    g = gate(base, worse)
    assert g.frame["verdict"].tolist() == ["worse", "worse"] and g.regressed == ["faithfulness", "hallucination"]
    assert g.exit_code() == g.exit_code(strict=True) == 1
    assert _row(g, "hallucination")["difference"] > 0 and _row(g, "hallucination")["direction"] == "lower"
    assert _row(g, "faithfulness")["why"].startswith("worse by 0.1")
    better = gate(worse, base)
    assert better.frame["verdict"].tolist() == ["better", "better"] and better.exit_code(strict=True) == 0
    same = gate(base, base, max_mde=0.2)
    assert same.frame["verdict"].tolist() == ["no detectable change"] * 2 and same.exit_code(strict=True) == 0
    assert "0.2 (max_mde) or more is ruled out" in _row(same, "faithfulness")["why"]
    assert set(g.frame["verdict"]) | set(better.frame["verdict"]) | set(same.frame["verdict"]) <= set(VERDICTS)


def test_the_margin_is_a_non_inferiority_test():
    """A fall of 0.02 known to within ±0.01: not a regression with margin 0.05 (ruled out), a
    regression with margin 0 and with 0.01; a margin the interval cannot rule out: cannot tell."""
    base = _frame(400, 0, faithfulness=_faith())
    new = base.assign(faithfulness=base["faithfulness"] - 0.02 + np.random.default_rng(1).normal(0, .05, 400))
    assert _row(gate(base, new), "faithfulness")["verdict"] == "worse"
    small = _row(gate(base, new, margin=0.01), "faithfulness")
    assert small["verdict"] == "worse" and "beyond the margin 0.01" in small["why"]
    assert small["p"] > _row(gate(base, new), "faithfulness")["p"]  # tested at −0.01, not at 0
    wide = _row(gate(base, new, margin=0.05), "faithfulness")
    assert wide["verdict"] == "no detectable change" and wide["why"].startswith("fell by 0.02")
    assert "within the margin 0.05: a fall of 0.05 or more is ruled out, so no regression" in wide["why"]
    se = (wide["difference"] - wide["lo"]) / norm.ppf(.975)
    assert wide["mde"] == pytest.approx(0.05 + (norm.ppf(.975) + norm.ppf(.8)) * se)
    few = _row(gate(base.iloc[:40], new.iloc[:40], margin=0.03), "faithfulness")
    assert few["verdict"] == "cannot tell" and "still holds a fall of 0.03 (the margin)" in few["why"]
    per_metric = _row(gate(base, new, margin={"faithfulness": 0.05}), "faithfulness")
    assert per_metric["margin"] == 0.05 and per_metric["verdict"] == "no detectable change"


def test_every_cannot_tell_says_why():
    base = _frame(100, 0, faithfulness=_faith(), hallucination=lambda r, n: np.full(n, np.nan))
    new = _frame(100, 1, faithfulness=_faith(), hallucination=lambda r, n: (r.random(n) < .1) * 1.0)
    g = gate(base, new)
    assert _row(g, "hallucination")["verdict"] == "cannot tell"
    assert _row(g, "hallucination")["why"] == "hallucination is Undefined on every shared query in the base run"
    few = _row(gate(base.iloc[:20], new.iloc[:20], metrics=["faithfulness"]), "faithfulness")
    assert few["verdict"] == "cannot tell" and "20 shared queries" in few["why"] and "min_shared = 30" in few["why"]
    assert not np.isnan(few["lo"]) and np.isnan(few["p_adjusted"])  # the numbers still shown
    absent = gate(base[["faithfulness"]], new, metrics=["faithfulness", "hallucination"])
    assert _row(absent, "hallucination")["why"] == "hallucination is not in the base run"
    judged = gate(base, new, metrics=["faithfulness"], base_judge={"judge": "gpt-4o", "repeats": 1},
                  new_judge={"judge": "llama3", "repeats": 1})
    assert judged.frame["verdict"].tolist() == ["cannot tell"] and "judged differently" in judged.frame["why"][0]
    assert judged.judge_note and judged.exit_code() == 0 and judged.exit_code(strict=True) == 4
    apart = gate(base, new.set_axis([f"x{i}" for i in range(100)]).rename_axis("query_id"))
    assert set(apart.frame["why"]) == {"the runs share no query_id"} and apart.shared == 0
    capped = _row(gate(base, base, metrics=["faithfulness"], max_mde=0.01), "faithfulness")
    assert capped["verdict"] == "cannot tell" and "more than max_mde = 0.01" in capped["why"]
    fell = base.assign(faithfulness=base["faithfulness"] - 0.03)
    unsure = _row(gate(base, fell, metrics=["faithfulness"], max_mde=0.08), "faithfulness")  # not significant
    assert unsure["verdict"] == "cannot tell" and "(max_mde)" in unsure["why"] and unsure["p"] > 0.05


def test_thin_data_never_pass_without_a_tolerance():
    """30 noisy pairs with no change (the MDE about 0.2): with margin 0 and no max_mde the gate
    cannot rule out any fall it was not given, so it says "cannot tell" (it used to say "no
    detectable change", ruling out only the fall of its own MDE); max_mde = 0.05 also cannot tell
    (the MDE is above it); a margin of 0.5 is ruled out."""
    base = _frame(30, 0, faithfulness=_faith())
    new = base.assign(faithfulness=base["faithfulness"] + np.random.default_rng(4).normal(0, .3, 30))
    new = new.assign(faithfulness=new["faithfulness"] - (new["faithfulness"] - base["faithfulness"]).mean())
    bare = _row(gate(base, new), "faithfulness")
    assert bare["verdict"] == "cannot tell" and bare["mde"] > 0.1 and "no tolerance was given" in bare["why"]
    assert gate(base, new).exit_code(strict=True) == 4
    assert _row(gate(base, new, max_mde=0.05), "faithfulness")["verdict"] == "cannot tell"
    assert _row(gate(base, new, margin=0.5), "faithfulness")["verdict"] == "no detectable change"
    with pytest.raises(InputError, match="max_mde"):
        gate(base, new, max_mde=0)


def test_exit_codes():
    base = _frame(100, 0, faithfulness=_faith(), hallucination=lambda r, n: (r.random(n) < .05) * 1.0)
    fell = base.assign(faithfulness=base["faithfulness"] - 0.2)
    both = gate(base.iloc[:50], fell.iloc[:50], min_shared=60, metrics=["faithfulness"])
    assert both.cannot_tell == ["faithfulness"] and both.exit_code() == 0 and both.exit_code(strict=True) == 4
    mixed = gate(base, fell.assign(hallucination=np.nan))  # one worse, one cannot tell: 1 wins
    assert mixed.regressed == ["faithfulness"] and mixed.cannot_tell == ["hallucination"]
    assert mixed.exit_code() == mixed.exit_code(strict=True) == 1
    assert gate(base, base).exit_code(strict=True) == 4  # no tolerance given
    assert gate(base, base, max_mde=0.2).exit_code(strict=True) == 0


def test_holm_over_the_metrics_by_hand():
    """Three metrics, each p by itself; Holm's adjusted p written out: sorted, times (m − rank), running max."""
    base = _frame(120, 0, a_score=_faith(), b_score=_faith(), c_score=_faith())
    noise = np.random.default_rng(9).normal(0, .1, (120, 3))
    new = base + np.array([-0.025, -0.02, -0.05]) + noise
    g = gate(base, new.clip(0, 1)).frame
    p = g["p"].to_numpy()
    order = np.argsort(p)
    expected = np.empty(3)
    expected[order] = np.minimum(np.maximum.accumulate(p[order] * (3 - np.arange(3))), 1)
    np.testing.assert_allclose(g["p_adjusted"], expected)
    assert ((g["p_adjusted"] < .05) == (g["verdict"] == "worse")).all()
    unadjusted = gate(base, new.clip(0, 1), adjust=None).frame
    np.testing.assert_allclose(unadjusted["p_adjusted"], p)


def test_the_judge_s_variance_widens_the_interval_by_hand():
    """Both sides judged 3 times: each sample's value is its mean over the repeats; each half-width h
    becomes √(h² + Σ_side t²_{2} s_b² / 3), s_b² the variance of the side's repeat means."""
    rng = np.random.default_rng(4)
    truth = _frame(80, 4, faithfulness=_faith())
    sides = [[truth.assign(faithfulness=np.clip(truth["faithfulness"] + shift + rng.normal(0, .05, 80), 0, 1))
              for shift in shifts] for shifts in ((0, .02, -.02), (-.03, -.01, .01))]
    g = _row(gate(sides[0][0], sides[1][0], base_repeats=sides[0], new_repeats=sides[1]), "faithfulness")
    a = np.mean([s["faithfulness"] for s in sides[0]], axis=0)
    b = np.mean([s["faithfulness"] for s in sides[1]], axis=0)
    plain = _row(gate(pd.DataFrame({"faithfulness": a}, index=truth.index),
                      pd.DataFrame({"faithfulness": b}, index=truth.index)), "faithfulness")
    assert g["difference"] == pytest.approx(b.mean() - a.mean()) == pytest.approx(plain["difference"])
    assert (g["base_mean"], g["new_mean"]) == pytest.approx((a.mean(), b.mean()))
    extra = sum(np.var([s["faithfulness"].mean() for s in side], ddof=1) / 3 * student_t.ppf(.975, 2) ** 2
                for side in sides)
    d = g["difference"]
    assert g["lo"] == pytest.approx(d - math.sqrt((d - plain["lo"]) ** 2 + extra))
    assert g["hi"] == pytest.approx(d + math.sqrt((plain["hi"] - d) ** 2 + extra))
    assert "judge's variance included" in g["why"]
    one_side = _row(gate(sides[0][0], sides[1][0], base_repeats=sides[0]), "faithfulness")  # not both: plain
    assert one_side["lo"] == pytest.approx(_row(gate(sides[0][0], sides[1][0]), "faithfulness")["lo"])


def _labelled(qid, labels):
    return {"query_id": qid, "query": f"question {qid}?", "response": "r.", "gt_answer": "g.",
            "response_claims": [["s", "p", str(j)] for j in range(len(labels))], "answer2response": labels}


def test_repeats_as_records_with_label_repeats():
    """Records filled with label_repeats (combine) give the repeats; the A/A check splits them."""
    rng = np.random.default_rng(0)
    truth = rng.random((40, 4)) < .7
    sets = [[_labelled(f"s{i}", ["Entailment" if t ^ (rng.random() < .1) else "Neutral" for t in row])
             for i, row in enumerate(truth)] for _ in range(4)]
    records = combine(sets)
    scores = rw.evaluate(records)
    g = gate(scores, scores, base_repeats=records[:], new_repeats=records, metrics=["precision"], max_mde=0.3)
    assert g.frame["verdict"].tolist() == ["no detectable change"] and g.frame["difference"][0] == 0
    aa = aa_false_alarms(records, draws=20, seed=1, metrics=["precision"])
    assert aa["mode"] == "repeats" and aa["splits"] == 6 and aa["pairs"] == 40 and aa["draws"] == 20
    assert "4 judge repeats split 2 against 2" in aa["how"] and 0 <= aa["rate"] <= aa["any_rate"] <= 1
    with pytest.raises(InputError, match="base repeats.*label_repeats"):
        gate(scores, scores, base_repeats=[{"query_id": "a"}], new_repeats=records)


def test_aa_false_alarms_on_the_queries():
    run = _frame(120, 0, faithfulness=_faith(), hallucination=lambda r, n: (r.random(n) < .05) * 1.0)
    aa = aa_false_alarms(run, draws=30, seed=2)
    assert aa["mode"] == "queries" and aa["pairs"] == 60 and aa["splits"] is None
    assert aa["se"] == pytest.approx(math.sqrt(aa["rate"] * (1 - aa["rate"]) / 30))
    assert aa["nominal"] == pytest.approx(0.025) and aa["any_nominal"] == pytest.approx(0.05)
    assert aa == aa_false_alarms(run, draws=30, seed=2)  # seeded
    with pytest.raises(InputError, match="at least 2"):
        aa_false_alarms(run, repeats=[run], draws=5)


def test_to_dict_is_json_and_said_is_one_line():
    base = _frame(100, 0, faithfulness=_faith(), hallucination=lambda r, n: np.full(n, np.nan))
    g = gate(base, base.assign(faithfulness=base["faithfulness"] - .2))
    out = json.loads(json.dumps(g.to_dict(), allow_nan=False))
    assert out["exit_code"] == 1 and out["regressed"] == ["faithfulness"] and out["cannot_tell"] == ["hallucination"]
    assert out["verdicts"][1]["p"] is None and set(out["verdicts"][0]) == set(g.frame.columns)
    assert list(g.frame.columns) == ["metric", "direction", "shared", "base_mean", "new_mean", "difference", "lo",
                                     "hi", "p", "p_adjusted", "margin", "mde", "verdict", "why"]
    assert g.said() == "1 worse (faithfulness), 1 cannot tell of 2 metrics (Holm at 95%, 100 shared queries)"


def test_bad_input_is_an_input_error():
    base = _frame(50, 0, faithfulness=_faith())
    for kwargs, match in (({"metrics": ["nope"]}, "no run has metric.*'nope'"), ({"level": 1.5}, "level"),
                          ({"adjust": "bonferroni"}, "adjust"), ({"margin": -0.1}, "margin of faithfulness"),
                          ({"metrics": ["faithfulness", "faithfulness"]}, "named twice")):
        with pytest.raises(InputError, match=match):
            gate(base, base, **kwargs)
    with pytest.raises(InputError, match="the new run is a str"):
        gate(base, "results.json")


@pytest.fixture(scope="module")
def refchecker():
    return {system: rw.evaluate(records) for system, records in refchecker_human("noisy_context").items()}


def test_refchecker_a_clear_pair_differs_and_the_identical_pair_does_not(refchecker):
    """Humans' faithfulness labels, noisy context (MS MARCO): GPT-4 (0.92) against Alpaca 7B (0.60)
    is a regression; GPT-4 against itself is no detectable change."""
    clear = gate(refchecker["gpt4"], refchecker["alpaca_7B"])
    assert clear.regressed == ["faithfulness"] and clear.exit_code() == 1
    same = gate(refchecker["gpt4"], refchecker["gpt4"], margin=0.05)
    assert same.frame["verdict"].tolist() == ["no detectable change"] and same.frame["difference"][0] == 0
