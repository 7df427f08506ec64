"""Repeated judging against the loopback judge server: distinct requests per repeat, every answer
kept, the policy's label, flip rates, the cache and the dry run."""

import pytest

from ragwidgets.judges.repeats import combine, fill_repeats, flip_rates, majority, plan_repeats, repeat_of

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
    # every judged label above differs in at least one repeat; the None cell has no judged answers
    assert flip_rates(combine(sets)) == {"answer2response": (3, 3), "retrieved2response": (3, 3)}


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
    flipped, n = flip_rates(filled)["retrieved2response"]
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


def test_bad_repeats_and_policies_are_refused(make_judge):
    with pytest.raises(ValueError, match="repeats must be"):
        fill_repeats([], make_judge(), repeats=0)
    with pytest.raises(ValueError, match="policy must be"):
        fill_repeats([], make_judge(), repeats=2, policy="mean")
