"""The judge's variance over repeats: per-repeat means and flaky samples by hand, Undefined kept
Undefined, and the interval over questions and repeats covering by simulation."""

import dataclasses

import numpy as np
import pytest

from ragwidgets.analysis import Repeats, combined_interval, flakiness, judge_variance, label_flips, repeat_scores
from ragwidgets.analysis.bootstrap import interval
from ragwidgets.engine import Batch, evaluate
from ragwidgets.judges.repeats import combine
from ragwidgets.model import Claim, Sample

E, N = "Entailment", "Neutral"


def _record(qid, labels):
    return {"query_id": qid, "query": "q?", "response": "r.", "gt_answer": "g.",
            "response_claims": [["s", "p", str(j)] for j in range(len(labels))], "answer2response": labels}


def _filled():
    """Four samples judged three times (precision by repeat: s0 1, .5, 1; s1 .25 each; s2 no
    claims: Undefined; s3 0, 1, unjudged)."""
    repeats = [
        [[E, E], [E, N, N, N], [], [N]],
        [[E, N], [E, N, N, N], [], [E]],
        [[E, E], [E, N, N, N], [], [None]],
    ]
    return combine([[_record(f"s{i}", labels) for i, labels in enumerate(r)] for r in repeats])


def test_per_repeat_means_spread_and_flaky_samples_by_hand():
    rep = repeat_scores(_filled(), ["precision"])
    assert rep.n_repeats == 3 and rep.metrics == ["precision"]
    m = judge_variance(rep, n_boot=200).metrics["precision"]
    means = [(1 + .25 + 0) / 3, (.5 + .25 + 1) / 3, (1 + .25) / 2]  # s2 Undefined everywhere, s3 in repeat 2
    assert m.repeat_means == pytest.approx(means)
    assert (m.repeat_min, m.repeat_max) == pytest.approx((means[0], means[2]))
    assert m.repeat_sd == pytest.approx(np.std(means, ddof=1))
    assert m.mean == pytest.approx((1 + .25 + 0) / 3)  # majority: s0 E E; s3 N (1 : 1, N came first)
    assert m.judge_mean == pytest.approx(np.mean(means))  # the mean of the repeat means, the interval's
    assert m.reason is None and m.judge_ci_low <= m.judge_mean <= m.judge_ci_high
    flaky = flakiness(rep)
    assert flaky.flaky.tolist() == [True, False, False, True]  # s3: defined, then Undefined
    assert flaky.by_metric["precision"].tolist() == [True, False, False, True]
    assert flaky.summary.loc["precision"].tolist() == [2, 4, 0.5, 5 / 12]  # pairs: s0 2 of 3 differ, s3 all 3
    labels = flaky.labels.loc["answer2response"]
    assert (labels.flipped, labels.labels) == (2, 7)  # s0's second claim, s3's claim (its None not counted)
    one = repeat_scores(_filled(), ["precision"], policy=1)
    assert judge_variance(one, n_boot=200).metrics["precision"].mean == pytest.approx(means[1])
    frame = judge_variance(rep, n_boot=200).frame
    assert list(frame.columns[-4:]) == ["repeat_0", "repeat_1", "repeat_2", "reason"]


def test_undefined_stays_undefined_with_a_reason():
    filled = combine([[_record("a", []), _record("b", [])]] * 2)
    m = judge_variance(repeat_scores(filled, ["precision"]), n_boot=100).metrics["precision"]
    assert m.mean is None and m.ci_low is None and m.judge_ci_low is None and m.repeat_means == (None, None)
    assert m.repeat_sd is None and m.widening is None
    assert m.reason == "no sample is defined under the policy's labels; no sample is defined in any repeat"
    assert np.isnan(judge_variance(repeat_scores(filled, ["precision"]), n_boot=100).frame.loc["precision", "mean"])
    assert combined_interval(np.zeros((2, 3)), np.zeros((2, 3), dtype=bool)) == (
        None, None, "no sample is defined in any repeat")
    with pytest.raises(ValueError, match="no record holds label_repeats"):
        repeat_scores([_record("a", [E])])


def test_repeats_must_label_the_same_samples_and_claims():
    a = evaluate([_record("a", [E, N])], ["precision"])
    b = evaluate([_record("a", [E])], ["precision"])
    c = evaluate([_record("z", [E, N])], ["precision"])
    with pytest.raises(ValueError, match="repeat 1 labels other claims or passages than repeat 0"):
        Repeats((a, b), a)
    with pytest.raises(ValueError, match="the policy's scores scores other samples"):
        Repeats((a, a), c)
    with pytest.raises(ValueError, match="at least one repeat"):
        Repeats((), a)
    assert label_flips([]).empty


def _base(n, seed):
    """A Batch of ``n`` samples with 1..6 response claims each."""
    sizes = np.random.default_rng(seed).integers(1, 7, size=n)
    samples = [Sample(query_id=str(i), response_claims=tuple(Claim(f"c{j}") for j in range(k)),
                      answer2response=np.zeros(k, dtype=np.int8)) for i, k in enumerate(sizes)]
    return Batch.from_samples(samples)


def test_the_interval_over_questions_and_repeats_covers_when_the_judge_is_noisy():
    """Each run draws new questions (a claim is truly correct with probability q, q ~ Beta(2, 1) per
    question) and a judge that gets each claim wrong with probability f, independently per repeat;
    the target is the expected precision of one judge run: E[q](1 - f) + (1 - E[q]) f. Today's
    interval over the majority's labels is about another number (the majority errs less often
    than one run) and misses it far more often."""
    n, k, f, runs = 150, 3, 0.25, 200
    base = _base(n, 0)
    target = 2 / 3 * (1 - f) + 1 / 3 * f
    rng = np.random.default_rng(1)
    covered = by_majority = 0
    for _ in range(runs):
        q = rng.beta(2, 1, size=n)[base.resp_sample]
        truth = rng.random(len(q)) < q
        said = [truth ^ (rng.random(len(q)) < f) for _ in range(k)]
        scores = [evaluate(dataclasses.replace(base, answer2response=s.astype(np.int8)), ["precision"]) for s in said]
        majority = evaluate(dataclasses.replace(base, answer2response=(np.sum(said, axis=0) * 2 > k).astype(np.int8)),
                            ["precision"])
        m = judge_variance(Repeats(tuple(scores), majority), n_boot=400).metrics["precision"]
        covered += m.judge_ci_low <= target <= m.judge_ci_high
        by_majority += m.ci_low <= target <= m.ci_high
    assert covered / runs >= 0.9, covered / runs
    assert by_majority / runs < 0.85, by_majority / runs
    # without judge noise the repeats agree and the interval is today's, up to the bootstrap's draws
    same = evaluate(dataclasses.replace(base, answer2response=truth.astype(np.int8)), ["precision"])
    m = judge_variance(Repeats((same, same, same), same), n_boot=2000).metrics["precision"]
    values = same.frame["precision"].to_numpy()
    assert (m.ci_low, m.ci_high) == interval(values)
    assert m.widening == pytest.approx(1, abs=0.15) and flakiness(Repeats((same, same), same)).flaky.sum() == 0
