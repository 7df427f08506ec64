"""ComposedJudge: claims and REQUIRED/OPTIONAL labels from the LLM judge (the loopback server),
checks from a LocalChecker (a model the tests build, tests/local_models.py). The two disagree by
construction, so every label says which part gave it: the server's checker entails a claim whose
words all occur in the passage, the local model one whose passage holds "yes"."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")
pytest.importorskip("tokenizers")

import ragwidgets as rw  # noqa: E402
from local_models import keyword_model  # noqa: E402
from ragwidgets.cli import main  # noqa: E402
from ragwidgets.judges import (CheckJob, ComposedJudge, ExtractJob, JudgeCache, JudgeRunStopped,  # noqa: E402
                               LabelJob, LocalChecker, fill_labels)
from ragwidgets.judges.repeats import repeat_of  # noqa: E402
from ragwidgets.scoring import RagChecker  # noqa: E402

E, N = "Entailment", "Neutral"
YES, PLAIN = "yes the harbor", "the museum opened in 1890 it has two piers"
RECORD = {"query_id": "q1", "query": "When was the museum opened?", "gt_answer": "The museum opened in 1890.",
          "response": "The museum opened in 1890. It has two piers.",
          "retrieved_context": [{"doc_id": "d1", "text": YES}, {"doc_id": "d2", "text": PLAIN}]}


def _checks_sent(script) -> int:
    return sum(m["content"].startswith("Reference:") for b in script.bodies for m in b["messages"]
               if m["role"] == "user")


@pytest.fixture
def parts(make_judge, tmp_path):
    llm = make_judge()
    checker = LocalChecker(keyword_model(tmp_path / "kw"), cache=JudgeCache(tmp_path / "local.sqlite"))
    return llm, checker


def test_claims_and_labels_from_the_llm_checks_from_the_checker(parts, chat_server):
    llm, checker = parts
    judge = ComposedJudge(extract=llm, check=checker)
    assert judge.parts["label"] is llm and "LocalChecker" in repr(judge)
    filled = fill_labels([RECORD], judge, progress=False)[0]
    assert filled["response_claims"] == [["The", "museum", "opened in 1890"], ["It", "has", "two piers"]]
    assert filled["retrieved2response"] == [[E, N], [E, N]]  # "yes" in d1: the local model's rule
    assert filled["response_claim_labels"] == ["REQUIRED", "OPTIONAL"]  # "museum" is in the question
    assert _checks_sent(chat_server.script) == 0 and chat_server.script.requests == 4  # 2 extractions, 2 labellings
    alone = fill_labels([RECORD], llm, progress=False)[0]  # the LLM alone checks by its words rule
    assert alone["retrieved2response"] == [[N, E], [N, E]] and alone["response_claims"] == filled["response_claims"]
    stats = judge.stats
    assert stats.calls == llm.stats.calls + checker.stats.calls and stats.cache_hits >= 2  # the claims, cached
    trace, why = judge.trace_check(["It", "has", "two piers"], YES)
    assert why is None and trace["label"] == E and "chunk 1 decided" in trace["note"]


def test_a_rerun_is_answered_by_each_part_s_cache(parts, chat_server):
    llm, checker = parts
    fill_labels([RECORD], ComposedJudge(extract=llm, check=checker), progress=False)
    sent = chat_server.script.requests
    judge = ComposedJudge(extract=llm, check=checker)
    before = judge.stats
    assert fill_labels([RECORD], judge, progress=False)[0]["retrieved2response"] == [[E, N], [E, N]]
    after = judge.stats
    assert chat_server.script.requests == sent and after.calls == before.calls  # no call: every answer cached


def test_repeats_reach_every_part(parts, chat_server):
    llm, checker = parts
    judge = ComposedJudge(extract=llm, check=checker)
    again = repeat_of(judge, 1)
    assert again.repeat == 1 and judge.repeat == 0
    assert again.part("label").repeat == 1 and again.part("check").repeat == 1 and judge.part("label") is llm
    result = RagChecker(scores_to_compute=["faithfulness"]).score(
        [{"query_id": "q1", "query": RECORD["query"], "target": RECORD["gt_answer"], "response": RECORD["response"],
          "context": [YES, PLAIN]}], judge, repeats=2, progress=False)
    kept = result.records[0]["label_repeats"]["retrieved2response"]
    assert kept == [[[E, N], [E, N]], [[E, N], [E, N]]]  # the checker is deterministic: two answers, the same
    assert _checks_sent(chat_server.script) == 0


class _SlowChecker(LocalChecker):
    """A checker whose calls wait until cancelled (and say so)."""

    cancelled = False

    async def _check_call(self, claims, reference):
        try:
            await asyncio.sleep(600)
        except asyncio.CancelledError:
            type(self).cancelled = True
            raise


def test_a_part_that_stops_stops_the_others_and_the_run_keeps_what_finished(make_judge, tmp_path, chat_server):
    llm = make_judge(max_failures=0, max_retries=0, cache=None)
    chat_server.script.refuse_with = 500
    jobs = [ExtractJob("The museum opened in 1890."), CheckJob(["it has two piers"], YES),
            LabelJob(["it has two piers"], "piers?")]
    slow = _SlowChecker(keyword_model(tmp_path / "kw"))
    with pytest.raises(JudgeRunStopped, match=r"extract, label: .*the other parts were stopped") as stopped:
        ComposedJudge(extract=llm, check=slow).run(jobs, progress=False)
    assert _SlowChecker.cancelled and stopped.value.results[1] is None  # stopped, not waited for
    assert stopped.value.failures[0][0] in (0, 2)  # a failure named by its place in the whole run
    quick = ComposedJudge(extract=llm, check=LocalChecker(keyword_model(tmp_path / "kw2")))
    done = quick.run([CheckJob(["it has two piers"], YES)], progress=False)  # the LLM is not asked
    assert done[0] == [E] and quick.run([], progress=False) == []


def test_the_dry_run_counts_each_part_and_prices_the_llm(make_judge, tmp_path):
    llm = make_judge(price_per_input_token=1e-6, price_per_output_token=2e-6)
    judge = ComposedJudge(extract=llm, check=LocalChecker(keyword_model(tmp_path / "kw")))
    plan = rw.judges.plan_fill([RECORD], judge)
    assert plan.by_operation["check"].calls >= 1 and plan.by_operation["check"].prompt_tokens == 0
    assert plan.by_operation["extract"].prompt_tokens > 0 and plan.prices == (1e-6, 2e-6)
    with pytest.raises(TypeError, match="check: a judge"):
        ComposedJudge(check=42)
    with pytest.raises(TypeError, match="label: a judge"):
        ComposedJudge(check="lexical", label=object())
    lexical = ComposedJudge(check="lexical")
    assert lexical.parts["extract"] is lexical.parts["label"] is rw.judges.get_judge("lexical")


def _rows(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps({"query_id": "q1", "query": RECORD["query"], "target": RECORD["gt_answer"],
                                "response": RECORD["response"], "context": [YES, PLAIN]}) + "\n")
    return path


def test_the_judge_command_takes_a_checker_alone_or_with_the_llm(chat_server, tmp_path, capsys):
    rows, folder, cache = _rows(tmp_path), keyword_model(tmp_path / "kw"), str(tmp_path / "c.sqlite")
    common = [str(rows), "--cache", cache, "--no-progress", "--format", "json", "--scores", "faithfulness,precision"]
    assert main(["judge", *common, "--checker", str(folder)]) == 0  # no LLM: one claim per sentence
    out = json.loads(capsys.readouterr().out)["results"][0]
    claims = [["The", "museum", "opened in 1890"], ["It", "has", "two piers"]]  # the splitter's and the server's
    assert out["response_claims"] == claims and out["retrieved2response"] == [[E, N], [E, N]]
    assert chat_server.script.requests == 0
    assert main(["judge", *common, "--checker", str(folder), "--base-url", chat_server.base_url,
                 "--model", "m"]) == 0
    out = json.loads(capsys.readouterr().out)["results"][0]
    assert out["response_claims"] == claims and out["retrieved2response"] == [[E, N], [E, N]]
    assert chat_server.script.requests == 1 and _checks_sent(chat_server.script) == 0  # the extraction
    for extra, said in ((["--model", "m"], "give --base-url and --model"),
                        (["--checker", str(folder), "--model", "m"], "go together"),
                        (["--base-url", chat_server.base_url, "--model", "m", "--threshold", "0.7"],
                         "--threshold applies to --checker"),
                        (["--checker", str(tmp_path / "nowhere")], "is not a folder")):
        assert main(["judge", *common, *extra]) == 2, extra
        assert said in capsys.readouterr().err


def test_a_recipe_builds_the_composition_in_another_process_without_the_key(make_judge, tmp_path, chat_server,
                                                                            monkeypatch, api_secret):
    import pickle

    monkeypatch.setenv("RW_TEST_KEY", api_secret)
    llm = make_judge(api_key=None, api_key_env="RW_TEST_KEY")
    judge = ComposedJudge(extract=llm, check=LocalChecker(keyword_model(tmp_path / "kw")))
    sent = pickle.dumps(judge.recipe())
    assert api_secret.encode() not in sent
    built = pickle.loads(sent).build()
    assert built.parts["extract"] is built.parts["label"] and built.parts["check"].classifier._session is None
    assert fill_labels([RECORD], built, progress=False)[0]["retrieved2response"] == [[E, N], [E, N]]
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(judge)  # the LLM part holds a key: only its recipe travels
