"""RagChecker.score / dry_run over a Dask DataFrame on the 2-worker cluster, against the loopback
chat server of tests/judges (which counts requests and the most in flight at once)."""

from __future__ import annotations

import importlib.util
import os
import signal
import sys
import time
from collections import Counter
from pathlib import Path

import cloudpickle
import dask
import dask.dataframe as dd
import distributed
import numpy as np
import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets.dask.judging import PartitionStopped, combine
from ragwidgets.errors import InputError
from ragwidgets.judges import DirectoryCache, DryRun, JudgeCache, LexicalJudge, JudgeError, JudgeInterrupted, JudgeRunStopped, OpenAICompatibleJudge

_NAME = "ragwidgets_tests_judges_conftest"  # the same module object tests/scorer/conftest.py loads
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(_NAME, Path(__file__).parents[1] / "judges" / "conftest.py")
    sys.modules[_NAME] = _module = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_module)
chat_server = sys.modules[_NAME].chat_server
SECRET = sys.modules[_NAME].SECRET
KEY_ENV = "RAGWIDGETS_TEST_CLUSTER_KEY"


def rows(n: int) -> pd.DataFrame:
    topics = ["harbor", "museum", "ferry", "bridge"]
    return pd.DataFrame({
        "query": [f"When did the {topics[i % 4]} open in case {i}?" for i in range(n)],
        "target": [f"The {topics[i % 4]} opened in {1900 + i}. It has {i % 5} rooms." for i in range(n)],
        "response": [f"The {topics[i % 4]} opened in {1900 + i}. It never closed." for i in range(n)],
        "context": [[f"The {topics[i % 4]} opened in {1900 + i} after a vote.", f"Case {i} is long ago."]
                    for i in range(n)],
    }, index=pd.Index([f"q{i:03d}" for i in range(n)], name="qid"))


def partitioned(data: pd.DataFrame, n: int) -> dd.DataFrame:
    with dask.config.set({"dataframe.convert-string": False}):
        return dd.from_pandas(data, npartitions=n)


def judge_on(server, cache, **options) -> OpenAICompatibleJudge:
    settings = dict(model="fake-judge-1", base_url=server.base_url, cache=str(cache), timeout=5.0,
                    backoff=0.001, backoff_max=0.01, progress=False)
    return OpenAICompatibleJudge(**dict(settings, **options))


def assert_same_scores(ours: rw.scoring.ScoringResult, theirs: rw.scoring.ScoringResult) -> None:
    assert list(ours.frame.index) == list(theirs.frame.index)
    assert ours.score_columns == theirs.score_columns
    for column in theirs.frame.columns:
        if column in ours.score_columns:
            np.testing.assert_array_equal(ours.frame[column].to_numpy(), theirs.frame[column].to_numpy())
        else:
            assert ours.frame[column].tolist() == theirs.frame[column].tolist(), column
    assert ours.metrics == theirs.metrics


def executing(client: distributed.Client) -> dict:
    """Tasks each worker's threads still run (cancelled ones included: a thread cannot be killed)."""
    return client.run(lambda dask_worker: dask_worker.state.executing_count)


@pytest.fixture
def key_on_workers(client, monkeypatch):
    """The API key in the environment of this process and of every worker (as a deployment sets it)."""
    monkeypatch.setenv(KEY_ENV, SECRET)
    client.run(lambda: os.environ.__setitem__(KEY_ENV, SECRET))
    yield
    client.run(lambda: os.environ.pop(KEY_ENV, None))


def test_judging_on_the_cluster_equals_the_pandas_path_under_one_bound(client, chat_server, key_on_workers,
                                                                     tmp_path):
    chat_server.script.delay = 0.02
    data = rows(16)
    frame = partitioned(data, 4)
    judge = judge_on(chat_server, tmp_path / "cache.sqlite", api_key_env=KEY_ENV, max_concurrency=8)
    scorer = rw.RagChecker(mode="required_and_optional")
    plan = scorer.dry_run(frame, judge)
    assert plan == scorer.dry_run(frame.compute(), judge)  # planned on the workers = planned here
    assert chat_server.script.requests == 0
    scored = scorer.score(frame, judge, max_in_flight=3)
    assert chat_server.script.requests == 0  # lazy
    result = scored.compute()
    sent = chat_server.script.requests
    assert sent == plan.calls == result.usage.requests
    assert 1 < chat_server.script.max_in_flight <= 3  # two workers with eight slots each: the cluster's bound held
    assert set(chat_server.script.authorization) == {f"Bearer {SECRET}"}  # each worker read its own environment
    single = scorer.score(frame.compute(), judge)  # one process, the same cache: every answer already there
    assert chat_server.script.requests == sent and single.usage.calls == 0
    assert_same_scores(result, single)
    lazy = scored.frame.compute()  # the frame runs the partitions again: the cache answers
    assert chat_server.script.requests == sent
    assert lazy.pop("unjudged").map(len).sum() == 0 and "unjudged" not in result.frame
    pd.testing.assert_frame_equal(lazy, result.frame)  # lists stay lists, index and order kept
    assert scorer.dry_run(frame, judge).calls == 0


def test_the_key_never_travels_and_a_given_key_is_refused(client, chat_server, key_on_workers, tmp_path):
    judge = judge_on(chat_server, tmp_path / "cache.sqlite", api_key_env=KEY_ENV)
    scored = rw.RagChecker().score(partitioned(rows(4), 2), judge)
    for part in scored.parts:
        sent = cloudpickle.dumps(dict(part.__dask_graph__()))
        assert SECRET.encode() not in sent and KEY_ENV.encode() in sent
    given = judge_on(chat_server, tmp_path / "cache.sqlite", api_key=SECRET)
    with pytest.raises(ValueError, match="api_key_env") as caught:
        rw.RagChecker().score(partitioned(rows(4), 2), given)
    assert SECRET not in str(caught.value)
    client.run(lambda: os.environ.pop(KEY_ENV))
    with pytest.raises(JudgeError, match=f"{KEY_ENV} is not set"):
        rw.RagChecker().dry_run(partitioned(rows(4), 2), judge)
    assert chat_server.script.requests == 0


def test_a_worker_killed_mid_judging_pays_for_no_cached_answer_again(client, chat_server, tmp_path):
    chat_server.script.delay = 0.03
    data = rows(32)
    frame = partitioned(data, 8)
    judge = judge_on(chat_server, tmp_path / "cache.sqlite", max_concurrency=2)
    scorer = rw.RagChecker()
    calls, workers = scorer.dry_run(frame, judge).calls, len(client.scheduler_info()["workers"])
    scored = scorer.score(frame, judge, max_in_flight=4)
    futures = client.compute(scored.parts)
    while chat_server.script.requests < calls // 3:
        time.sleep(0.02)
    busy = [worker for worker, keys in client.processing().items() if keys]
    assert busy and chat_server.script.requests < calls, "the run finished before a worker could be killed"
    os.kill(client.run(os.getpid, workers=busy[:1])[busy[0]], signal.SIGKILL)
    results = client.gather(futures)
    client.wait_for_workers(workers, timeout=300)  # the nanny starts a new one (minutes under load)
    again = sum(n - 1 for n in Counter(repr(body["messages"]) for body in chat_server.script.bodies).values())
    assert again <= 4  # sent twice: only what the dead worker had in flight (2) or not yet stored ...
    assert chat_server.script.requests <= calls + 4  # ... and nothing it had stored in the cache
    assert_same_scores(combine(scorer, results), scorer.score(data, judge))


def test_a_refused_row_is_named_undefined_or_stops_its_partition(client, chat_server, tmp_path):
    chat_server.script.reject_marker = "case 5?"
    frame = partitioned(rows(12), 3)
    scorer = rw.RagChecker(scores_to_compute=["faithfulness"])
    result = scorer.score(frame, judge_on(chat_server, tmp_path / "cache.sqlite"), max_in_flight=2).compute()
    refused = [qid for qid, reasons in result.frame["undefined_reasons"].items() if reasons]
    assert refused == ["q005"]
    assert "HTTP 400" in str(result.frame.loc["q005", "unjudged"])
    stopping = judge_on(chat_server, tmp_path / "other.sqlite", max_failures=0, max_concurrency=4)
    chat_server.script.delay = 0.05  # requests wait for leases when the stop cancels them
    scored = scorer.score(frame, stopping, max_in_flight=2)
    with pytest.raises(JudgeRunStopped) as caught:
        scored.compute()
    assert isinstance(caught.value, PartitionStopped)
    assert "partition 1 (rows 'q004' … 'q007')" in str(caught.value) and "'q005'" in str(caught.value)
    leases, deadline = distributed.Semaphore(max_leases=2, name=scored.parts[0].key[0]), time.monotonic() + 10
    while leases.get_value() and time.monotonic() < deadline:  # partitions still running finish theirs
        time.sleep(0.05)
    assert leases.get_value() == 0  # the requests the stop cancelled gave their leases back


def test_an_interrupt_stops_every_worker_and_computing_again_resumes(client, chat_server, tmp_path, monkeypatch):
    chat_server.script.delay = 0.02
    data = rows(16)
    judge = judge_on(chat_server, tmp_path / "cache.sqlite", max_concurrency=2)
    scorer = rw.RagChecker(scores_to_compute=["faithfulness", "claim_recall"])
    scored = scorer.score(partitioned(data, 4), judge, max_in_flight=2)

    def interrupted_gather(self, futures, *args, **kwargs):  # Ctrl-C while the client waits
        while chat_server.script.requests < 6:
            time.sleep(0.01)
        raise KeyboardInterrupt

    monkeypatch.setattr(distributed.Client, "gather", interrupted_gather)
    with pytest.raises(JudgeInterrupted, match="no new request is sent"):
        scored.compute()
    sent = chat_server.script.requests
    monkeypatch.undo()
    deadline = time.monotonic() + 20
    while any(executing(client).values()) and time.monotonic() < deadline:  # the stopped partitions end
        time.sleep(0.05)
    assert not any(executing(client).values())
    assert chat_server.script.requests <= sent + 2  # only those past their lease as it stopped
    stopped = chat_server.script.requests
    result = scored.compute()
    assert 0 < chat_server.script.requests - stopped < result.usage.requests + result.usage.cache_hits
    assert result.usage.cache_hits > 0  # what the stopped run received is not asked again
    assert_same_scores(result, scorer.score(data, judge))


@pytest.mark.parametrize("store", [JudgeCache, DirectoryCache])
def test_every_worker_writes_the_shared_cache_at_once(client, tmp_path, store):
    cache = store(tmp_path / "cache")

    def write(cache, count: int) -> int:
        worker = os.getpid()
        for i in range(count):
            cache.put(f"{worker}-{i}", "check", ["Entailment"])
            cache.put("same-key", "check", ["Neutral"])  # both workers, one key: one whole answer stays
        return len(cache)

    workers = len(client.run(write, cache, 300))  # every worker at once, each storing every answer
    assert workers == len(client.scheduler_info()["workers"]) and len(cache) == 300 * workers + 1 and cache.get("same-key") == ["Neutral"]


def test_offline_judges_saved_output_and_bad_input_on_the_cluster(client, tmp_path):
    data = rows(8)
    frame = partitioned(data, 2)
    scorer = rw.RagChecker(judge_model_key="lexical")
    scored = scorer.score(frame)
    result = scored.compute()
    assert result.usage.calls > 0
    assert_same_scores(result, scorer.score(data))
    scored.frame.reset_index().to_json(str(tmp_path / "part-*.jsonl.gz"), orient="records", lines=True,
                                       compression="gzip")
    with dask.config.set({"dataframe.convert-string": False}):
        saved = dd.read_json(str(tmp_path / "part-*.jsonl.gz"), lines=True, compression="gzip")
    again = scorer.score(saved.set_index("qid", sort=False)).compute()
    assert again.usage.calls == 0  # the saved claims and labels are used as they are
    pd.testing.assert_frame_equal(again.scores, result.scores)
    assert scorer.dry_run(frame) == scorer.dry_run(data)
    with pytest.raises(TypeError, match="cannot be sent to the workers"):
        scorer.score(frame, type("Sending", (LexicalJudge,), {"sends_requests": True})())
    with pytest.raises(InputError, match="convert-string"):
        scorer.score(dd.from_pandas(data, npartitions=1))
    with pytest.raises(TypeError, match="Dask DataFrame only"):
        scorer.score(data, max_in_flight=2)


def test_dry_runs_add_up_and_refuse_different_prices():
    one, two = DryRun(estimated_texts=1, prices=(1e-6, 2e-6)), DryRun(estimated_texts=2)
    one.add("check", calls=2, judgements=9, cached=3, prompt_tokens=100, completion_tokens=10)
    two.add("check", calls=1, judgements=4, cached=4, prompt_tokens=50, completion_tokens=5)
    two.add("extract", calls=1, judgements=1, prompt_tokens=20, completion_tokens=7)
    total = one + two
    assert (total.calls, total.judgements, total.cached, total.estimated_texts) == (4, 14, 7, 3)
    assert total.by_operation["check"].prompt_tokens == 150 and total.prices == (1e-6, 2e-6)
    assert total.cost == pytest.approx(170 * 1e-6 + 22 * 2e-6)
    with pytest.raises(ValueError, match="priced differently"):
        total + DryRun(prices=(1e-6, 3e-6))


def test_a_composed_judge_is_built_on_a_worker_from_its_parts_and_bounded_by_its_llm(monkeypatch):
    """A ComposedJudge travels as its parts' recipes (the LLM's key stays behind), is built whole
    where the partitions run (one LLM serving claims and labels, built once), and the cluster-wide
    bound is the LLM's own max_concurrency unless max_in_flight is given."""
    from ragwidgets.dask.judging import _bound, judge_for, recipe_of
    from ragwidgets.judges import ComposedJudge

    monkeypatch.setenv("RW_COMPOSED_KEY", "sk-composed-secret")
    llm = OpenAICompatibleJudge("m", "http://127.0.0.1:9/v1", api_key_env="RW_COMPOSED_KEY", max_concurrency=3,
                                cache=None)
    recipe = recipe_of(rw.RagChecker(), ComposedJudge(extract=llm, check="lexical"))
    assert b"sk-composed-secret" not in cloudpickle.dumps(recipe)
    assert _bound(recipe, None) == 3 and _bound(recipe, 5) == 5
    assert _bound(recipe_of(rw.RagChecker(), ComposedJudge(check="lexical")), None) is None  # nothing sent
    built = judge_for("composed-run", cloudpickle.loads(cloudpickle.dumps(recipe)), None)
    assert isinstance(built, ComposedJudge) and built.parts["extract"] is built.parts["label"]
    assert isinstance(built.parts["extract"], OpenAICompatibleJudge) and isinstance(built.parts["check"], LexicalJudge)
    assert judge_for("composed-run", recipe, None) is built  # kept for the run's other partitions
