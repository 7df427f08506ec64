"""RagChecker.score under a real endpoint's faults, the way a notebook user meets them."""

from __future__ import annotations

import asyncio
import signal
import socket
import threading
import time

import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets.judges import JudgeInterrupted, JudgeRequestError, JudgeRunStopped


def rows(n: int) -> pd.DataFrame:
    return pd.DataFrame({
        "query": [f"What does museum {i} hold?" for i in range(n)],
        "target": [f"Museum {i} holds maps. Museum {i} holds ships." for i in range(n)],
        "response": [f"Museum {i} holds maps. Museum {i} holds coins." for i in range(n)],
        "context": [[f"Museum {i} holds maps and ships.", f"Museum {i} opened early."] for i in range(n)],
    }, index=pd.Index([f"m{i}" for i in range(n)], name="museum"))


def test_interrupting_a_scoring_cell_stops_spending_and_the_rerun_resumes(make_judge, chat_server, python_sigint):
    chat_server.script.delay = 0.03
    frame = rows(30)
    scorer = rw.RagChecker(scores_to_compute=["faithfulness", "recall"])
    main = threading.main_thread().ident

    def press_stop():
        while chat_server.script.requests < 12:
            time.sleep(0.005)
        signal.pthread_kill(main, signal.SIGINT)

    async def cell():
        return scorer.score(frame, make_judge(max_concurrency=2))

    loop = asyncio.new_event_loop()  # like a kernel: a running loop, Ctrl-C raised in the cell's code
    threading.Thread(target=press_stop, daemon=True).start()
    try:
        with pytest.raises(JudgeInterrupted, match="running again resumes"):
            loop.run_until_complete(cell())
    finally:
        loop.close()
    sent = chat_server.script.requests
    time.sleep(0.3)
    assert chat_server.script.requests == sent < 30

    judge = make_judge()
    plan = scorer.dry_run(frame, judge)
    result = scorer.score(frame, judge)
    assert plan.cached > 0 and judge.stats.requests == plan.calls  # the answers before the stop were kept
    assert result.scores["faithfulness"].tolist() == [0.5] * 30 and result.scores["recall"].tolist() == [0.5] * 30


def test_a_metric_reading_a_missing_column_fails_before_any_request(frame, make_judge, chat_server):
    scorer = rw.RagChecker(metrics=[{"type": "weighted_average", "score": "recall", "weights_column": "weight"}])
    for run in (scorer.dry_run, scorer.score):
        with pytest.raises(ValueError, match="reads column 'weight'"):
            run(frame, make_judge())
    assert chat_server.script.requests == 0


def test_a_stopped_run_keeps_the_scores_of_what_finished(make_judge, chat_server):
    chat_server.script.reject_marker = "museum 7 "
    frame = rows(10)
    judge = make_judge(max_failures=0)
    judge.max_jobs_in_flight = 1  # jobs in order: the rows before the refused one finish first
    scorer = rw.RagChecker(scores_to_compute=["faithfulness"])
    with pytest.raises(JudgeRunStopped, match="1 calls failed, more than max_failures=0") as stop:
        scorer.score(frame, judge)
    assert "sample 'm7' (response_claims)" in str(stop.value) and ".result" in str(stop.value)
    result = stop.value.result
    assert result.frame["response_claims"].notna().tolist() == [True] * 7 + [False] * 3
    assert result.reasons.loc["m7", "faithfulness"].startswith("response_claims could not be extracted: "
                                                               "the server refused the request: HTTP 400")
    assert "the run stopped before it" in result.reasons.loc["m8", "faithfulness"]
    assert result.usage.calls == 8 and result.usage.failures == 1


# -- replies cut short, numbered answers, oversized bodies, servers down -------------------------------

def test_a_reply_cut_short_leaves_its_cells_undefined_with_the_reason_and_uncached(make_judge, chat_server):
    chat_server.script.fault_next(*["length"] * 4)  # every attempt at the first call: the extraction of m0
    frame = rows(4)
    judge = make_judge(max_concurrency=1, max_retries=3, max_tokens=32)
    judge.max_jobs_in_flight = 1
    scorer = rw.RagChecker(scores_to_compute=["faithfulness"])
    result = scorer.score(frame, judge)
    assert result.scores["faithfulness"].isna().tolist() == [True, False, False, False]
    assert 'cut short (finish_reason "length"): max_tokens=32' in result.reasons.loc["m0", "faithfulness"]
    rerun = make_judge()
    again = scorer.score(frame, rerun)
    assert rerun.stats.calls == 3  # only m0's extraction and its checks on two passages: nothing cut was kept
    assert again.scores["faithfulness"].tolist() == [0.5] * 4


def test_scoring_against_a_server_that_is_down_raises_naming_the_host(make_judge):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    judge = make_judge(base_url=f"http://127.0.0.1:{port}/v1", max_retries=1)
    with pytest.raises(JudgeRequestError, match=f"could not reach 127.0.0.1:{port} \\(Connection refused\\)"):
        rw.RagChecker(scores_to_compute=["faithfulness"]).score(rows(6), judge)


@pytest.mark.parametrize("concurrency", [1, 4])
def test_scoring_with_a_refused_key_sends_no_request_after_the_first_refusal(make_judge, chat_server, concurrency):
    chat_server.script.refuse_with = 401
    judge = make_judge(max_concurrency=concurrency)
    with pytest.raises(JudgeRequestError, match="HTTP 401"):
        rw.RagChecker(scores_to_compute=["faithfulness", "recall"]).score(rows(30), judge)
    assert chat_server.script.requests <= judge.stats.requests <= concurrency  # and none counted but not sent
