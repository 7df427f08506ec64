"""Repeated judging against the loopback judge server: distinct requests per repeat, every answer
kept, the policy's label, flip rates, the cache and the dry run; through the scorer and the CLI."""

import json
import warnings

import pandas as pd
import pytest

from ragwidgets.analysis import label_flips, repeat_scores
from ragwidgets.cli import main
from ragwidgets.engine import evaluate
from ragwidgets.errors import InputWarning
from ragwidgets.judges import JudgeRunStopped
from ragwidgets.judges.repeats import combine, fill_repeats, majority, pick, plan_repeats, repeat_of
from ragwidgets.scoring import RagChecker

E, N, C = "Entailment", "Neutral", "Contradiction"


def test_majority_by_hand_ties_go_to_the_earliest_repeat():
    assert majority([E, N, E]) == E
    assert majority([N, E, None]) == N  # 1 : 1, N came first
    assert majority([None, E, N, N]) == N
    assert majority([None, None]) is None
    sets = [[{"query_id": "a", "answer2response": [E, N, C], "retrieved2response": [[E, N], [C, None]]}],
            [{"query_id": "a", "answer2response": [N, N, E], "retrieved2response": [[N, N], [E, None]]}],
            [{"query_id": "a", "answer2response": [E, E, N], "retrieved2response": [[N, E], [E, None]]}]]
    got = combine(sets)[0]
    assert got["answer2response"] == [E, N, C]  # C, E, N: all tied, C first
    assert got["retrieved2response"] == [[N, N], [E, None]]
    assert got["label_repeats"]["answer2response"] == [[E, N, C], [N, N, E], [E, E, N]]
    assert combine(sets, policy=1)[0]["answer2response"] == [N, N, E]
    with pytest.raises(ValueError, match="repeat index 0..2"):
        combine(sets, policy=3)
    assert pick(combine(sets), 2)[0]["retrieved2response"] == [[N, E], [E, None]]
    assert pick(combine(sets, policy=1), "majority")[0]["answer2response"] == [E, N, C]


def test_repeat_index_is_in_the_cache_key_and_repeat_0_keeps_todays_key(make_judge):
    judge = make_judge()
    again = make_judge()
    key = judge._check_key("Paris is big", "Paris is big.")
    assert key == again._check_key("Paris is big", "Paris is big.")
    assert repeat_of(judge, 0) is judge
    keys = {repeat_of(judge, r)._check_key("Paris is big", "Paris is big.") for r in range(3)}
    assert len(keys) == 3 and key in keys
    assert repeat_of(judge, 2).cache is judge.cache and repeat_of(judge, 2).stats is judge.stats


def _records(n, claims=5, passages=5):
    words = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "theta", "kappa"]
    out = []
    for i in range(n):
        context = [{"doc_id": f"d{i}-{k}", "text": " ".join(words[(i + k) % 8:(i + k) % 8 + 4]) or "alpha beta"}
                   for k in range(passages)]
        out.append({"query_id": f"q{i}", "query": "what?", "gt_answer": "alpha beta gamma.", "response": "x y z.",
                    "retrieved_context": context,
                    "response_claims": [[words[(i + j) % 8], words[(i + j + 1) % 8], words[(i + 2 * j) % 8]]
                                        for j in range(claims)]})
    return out


def test_flip_rate_measured_within_a_few_points_of_the_servers(make_judge, chat_server):
    p, k = 0.2, 3
    chat_server.script.flip = p
    filled = fill_repeats(_records(60), make_judge(), {"retrieved2response"}, repeats=k, progress=False)
    flips = label_flips([s.batch for s in repeat_scores(filled, ["faithfulness"]).runs])
    flipped, n = flips.loc["retrieved2response", ["flipped", "labels"]]
    assert n == 60 * 5 * 5 >= 1000
    expected = 1 - (1 - p) ** k - p**k  # a label flips unless all k answers kept, or all swapped, it
    assert abs(flipped / n - expected) < 0.05, (flipped / n, expected)
    record = filled[0]
    copies = record["label_repeats"]["retrieved2response"]
    assert len(copies) == k
    assert record["retrieved2response"] == [[majority([c[j][m] for c in copies]) for m in range(5)] for j in range(5)]


def test_dry_run_equals_the_requests_sent_and_a_rerun_sends_none(make_judge, chat_server):
    records = [{"query_id": "q1", "query": "What is the capital of France?",
                "gt_answer": "Paris is the capital of France. Paris has the Louvre.",
                "response": "Paris is the capital of France. Lyon never hosted the Olympics.",
                "retrieved_context": [{"doc_id": "d1", "text": "Paris is the capital of France."},
                                      {"doc_id": "d2", "text": "The Louvre is in Paris."}]}]
    judge = make_judge(check_batch_size=1, seed=7)
    needs = {"response_claims", "retrieved2response", "answer2response"}
    plan = plan_repeats(records, judge, needs, repeats=3)
    filled = fill_repeats(records, judge, needs, repeats=3, progress=False)
    sent = chat_server.script.requests
    assert plan.calls == sent == 1 + 3 * (2 * 2 + 2)  # one extraction; per repeat 4 passage + 2 answer checks
    assert sorted({b.get("seed") for b in chat_server.script.bodies}) == [7, 8, 9]
    assert filled[0]["retrieved2response"] == [[E, N], [C, C]]  # "never": the fake server says Contradiction
    assert plan_repeats(records, judge, needs, repeats=3).calls == 0
    assert fill_repeats(records, judge, needs, repeats=3, progress=False)[0] == filled[0]
    assert chat_server.script.requests == sent  # the cache answered every repeat
    more = plan_repeats(records, judge, needs, repeats=4)
    assert more.calls == 6  # only the new repeat is asked


def test_a_stopped_run_keeps_every_repeat_the_unasked_ones_unjudged(make_judge, chat_server):
    records = _records(1, claims=2, passages=2)
    chat_server.script.fault_next(None, None, None, None, None, "bad-request")  # claims given: 4 checks a repeat
    judge = make_judge(check_batch_size=1, max_failures=0, max_concurrency=1)
    with pytest.raises(JudgeRunStopped, match=r"stopped in repeat 1 of 0..2") as stopped:
        fill_repeats(records, judge, {"retrieved2response"}, repeats=3, policy=2, progress=False)
    record = stopped.value.records[0]
    first, second, third = record["label_repeats"]["retrieved2response"]
    assert None not in first[0] + first[1] and None in second[0] + second[1]
    assert third == [[None, None], [None, None]] == record["retrieved2response"]  # policy 2: not reached
    assert stopped.value.records.usage.calls >= 4


def test_bad_repeats_and_policies_are_refused(make_judge):
    with pytest.raises(ValueError, match="repeats must be"):
        fill_repeats([], make_judge(), repeats=0)
    with pytest.raises(ValueError, match="policy must be"):
        fill_repeats([], make_judge(), repeats=2, policy="mean")


def _frame(n=2):
    rows = [{"query": "What is the capital of France?",
             "target": "Paris is the capital of France. Paris has the Louvre.",
             "response": "Paris is the capital of France. Lyon never hosted the Olympics.",
             "context": [{"doc_id": "d1", "text": "Paris is the capital of France."},
                         {"doc_id": "d2", "text": "The Louvre is in Paris. Paris has the Louvre."}]},
            {"query": "Which river flows through Paris?", "target": "The Seine flows through Paris.",
             "response": "Seine flows through Paris.", "context": ["The Seine flows through Paris in France."]}]
    return pd.DataFrame(rows[:n], index=pd.Index([f"q{i + 1}" for i in range(n)], name="qid"))


def test_the_scorer_repeats_the_judge_dry_run_counts_repeats_and_a_rerun_sends_none(make_judge, chat_server):
    chat_server.script.flip = 0.3
    scorer, frame = RagChecker(), _frame()
    judge = make_judge(check_batch_size=1)
    once = scorer.dry_run(frame, judge)
    plan = scorer.dry_run(frame, judge, repeats=3)
    extract = once.by_operation["extract"].calls
    assert plan.calls == extract + 3 * (once.calls - extract)  # claims extracted once, every check asked 3 times
    result = scorer.score(frame, judge, repeats=3)
    assert chat_server.script.requests == plan.calls
    copies = result.records[0]["label_repeats"]["answer2response"]
    assert len(copies) == 3 and result.records[0]["answer2response"] == [majority(c) for c in zip(*copies)]
    assert result.frame["answer2response"].iloc[0] == result.records[0]["answer2response"]
    again = scorer.score(frame, judge, repeats=3)
    assert chat_server.script.requests == plan.calls and again.usage.requests == 0  # the cache answered all
    # one cache entry per distinct (claim, reference) of a repeat: q1's "Paris is the capital of France"
    # is checked against d1 as a response claim and as a ground-truth claim, and a flipping server may
    # have answered those two requests differently; every other label reads back as it was answered
    copies = again.records[0]["label_repeats"]["answer2response"]
    assert copies == result.records[0]["label_repeats"]["answer2response"]
    assert scorer.score(frame, judge, repeats=3).scores.equals(again.scores)
    second = scorer.score(frame, judge, repeats=3, policy=1)  # one repeat's labels: repeat 1's, from the cache
    assert chat_server.script.requests == plan.calls
    assert second.records[0]["answer2response"] == copies[1]
    plain = repeat_scores(result.records, list(scorer.scores), policy=1).policy.frame
    assert plain["precision"].tolist() == second.frame["precision"].tolist()
    assert scorer.score(frame, judge).records[0]["answer2response"] == copies[0]  # repeats=1: today's key
    assert chat_server.script.requests == plan.calls
    with pytest.raises(ValueError, match="policy must be 'majority' or a repeat index 0..1"):
        scorer.score(frame, judge, repeats=2, policy=2)
    with pytest.raises(ValueError, match="repeats must be"):
        scorer.dry_run(frame, judge, repeats=0)


def test_the_judge_cli_takes_repeats_and_a_policy(chat_server, tmp_path, capsys):
    rows = tmp_path / "rows.jsonl"
    rows.write_text("\n".join(json.dumps(r) for r in _frame().reset_index().rename(columns={"qid": "query_id"})
                              .to_dict("records")))

    def judge(*extra):
        return main(["judge", str(rows), "--base-url", chat_server.base_url, "--model", "m", "--cache",
                     str(tmp_path / "c.sqlite"), "--no-progress", *extra])

    assert judge("--dry-run", "--repeats", "3", "--scores", "precision,faithfulness") == 0
    total = capsys.readouterr().out.splitlines()[4].split()
    assert total[0] == "total" and chat_server.script.requests == 0
    chat_server.script.flip = 0.3
    assert judge("--repeats", "3", "--format", "json", "--scores", "precision,faithfulness") == 0
    captured = capsys.readouterr()
    assert chat_server.script.requests == int(total[1])  # the dry run counted every repeat
    out = json.loads(captured.out)
    assert len(out["results"][0]["label_repeats"]["retrieved2response"]) == 3
    flips = out["label_flips"]
    assert set(flips) == {"answer2response", "retrieved2response"} and flips["answer2response"]["labels"] == 3
    assert "labels that flip across the 3 repeats: answer2response" in captured.err
    assert "per pair of repeats" in captured.err and 0 <= flips["answer2response"]["pair_share"] <= 1
    saved = tmp_path / "scored.json"
    assert judge("--repeats", "3", "--policy", "2", "--scores", "precision,faithfulness", "--output", str(saved)) == 0
    assert chat_server.script.requests == int(total[1]) and "0 calls" in capsys.readouterr().err
    record = json.loads(saved.read_text())["results"][0]
    assert record["answer2response"] == record["label_repeats"]["answer2response"][2]
    with warnings.catch_warnings():
        warnings.simplefilter("error", InputWarning)  # label_repeats is a known field
        assert evaluate(saved, ["precision"]).metrics(0)["precision"] == record["metrics"]["precision"]
    assert judge("--repeats", "2", "--policy", "2") == 2
    assert "--repeats / --policy: policy must be" in capsys.readouterr().err
