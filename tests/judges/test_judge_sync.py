"""The sync wrappers work with and without a running event loop (as in a Jupyter cell)."""

from __future__ import annotations

import asyncio

from ragwidgets.judges import CheckJob, fill_labels, run_sync


def test_sync_wrappers_inside_a_running_loop(make_judge, chat_server):
    judge = make_judge(max_concurrency=2)

    async def notebook_cell():
        # like a cell in a kernel whose loop is running: plain sync calls, several times
        first = judge.check(["Paris is the capital"], "Paris is the capital")
        claims = judge.extract_claims("Paris is the capital of France.", "q")
        results = judge.run([CheckJob(["a b c"], "a b c"), CheckJob(["x y z"], "a b c")])
        filled = fill_labels(
            [{"query": "capital", "gt_answer": "Paris is big.", "response": "Paris is big.", "retrieved_context": []}],
            judge,
            progress=False,
        )
        # and the async API on the notebook's own loop, after the sync calls
        again = await judge.acheck(["Paris is the capital"], "Paris is the capital of France")
        return first, claims, results, filled, again

    first, claims, results, filled, again = asyncio.run(notebook_cell())
    assert first == ["Entailment"] and len(claims) == 1
    assert results == [["Entailment"], ["Neutral"]]
    assert filled[0]["answer2response"] == ["Entailment"]
    assert again == ["Entailment"]


def test_one_judge_across_many_loops(make_judge):
    judge = make_judge()
    for i in range(3):
        assert asyncio.run(judge.acheck([f"c {i} d"], f"c {i} d")) == ["Entailment"]
        assert judge.check([f"e {i} f"], "nothing") == ["Neutral"]


def test_run_sync_returns_the_value():
    async def value():
        await asyncio.sleep(0)
        return 42

    async def inside():
        return run_sync(value())

    assert run_sync(value()) == 42
    assert asyncio.run(inside()) == 42
