"""The run history (ragwidgets.history_store): a run stored and read back scores as it did, its metrics and
intervals as a direct evaluation gives them, the latest and accepted runs, one SQLite file (no WAL)
with a versioned schema, two processes adding at once, and bad input named by field."""

import json
import sqlite3
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

import ragwidgets as rw
from ragwidgets.analysis.intervals import mean_interval
from ragwidgets.analysis.table import run_table
from ragwidgets.datasets import refchecker_human
from ragwidgets.errors import InputError
from ragwidgets.history_store import SCHEMA_VERSION, History


@pytest.fixture(scope="module")
def systems():
    return refchecker_human("noisy_context")


@pytest.fixture
def history(tmp_path):
    return History(tmp_path / "history.sqlite")


def test_round_trip_scores_as_the_original(history, systems, tmp_path):
    path = tmp_path / "gpt4.json"
    path.write_text(json.dumps({"results": systems["gpt4"]}), encoding="utf-8")
    entry = history.add(path, "gpt4", commit="abc123", judge="human")
    assert (entry.name, entry.commit, entry.judge, entry.n, entry.source) == ("gpt4", "abc123", "human", 100, str(path))
    back = history.get("gpt4")
    assert back == systems["gpt4"]
    pd.testing.assert_frame_equal(rw.evaluate(back).frame, rw.evaluate(systems["gpt4"]).frame)


def test_latest_and_accepted(history, systems):
    history.add(systems["alpaca_7B"], "r1", judge="human")
    with pytest.raises(InputError, match="no accepted run yet"):
        history.get("accepted")
    history.add(systems["gpt4"], "r2", judge="human", accepted=True)
    history.add(systems["claude2"], "r3", judge="human")
    assert history.latest().name == "r3" and history.latest(accepted=True).name == "r2"
    assert history.get("latest") == systems["claude2"] and history.get("accepted") == systems["gpt4"]
    assert history.accept("r3").accepted
    assert history.get("accepted") == systems["claude2"]
    runs = history.runs()
    assert list(runs.columns) == ["name", "time", "commit", "judge", "accepted", "n"]
    assert runs["name"].tolist() == ["r1", "r2", "r3"] and runs["accepted"].tolist() == [False, True, True]
    assert runs["commit"].tolist() == [None, None, None] and runs["n"].tolist() == [100] * 3
    with pytest.raises(InputError, match="no run named 'r9'"):
        history.accept("r9")


def test_the_trend_frame_holds_the_direct_evaluation(history, systems):
    names = ["alpaca_7B", "gpt4", "falcon_40B_instruct"]
    for name in names:
        history.add(systems[name], name)
    frame = history.frame
    assert frame.index.tolist() == names
    for name in names:
        scores = rw.evaluate(systems[name])
        table = run_table(scores)
        for metric in table.metrics:
            values = table.frame[metric].to_numpy(dtype=float)[table.status[metric].to_numpy() == 0]
            distinct, counts = np.unique(values, return_counts=True)
            mean, lo, hi = mean_interval(distinct, counts)
            assert frame.loc[name, metric] == pytest.approx(scores.aggregate()[metric]["mean"], abs=1e-12)
            assert frame.loc[name, metric] == pytest.approx(values.mean(), abs=1e-12)
            assert (frame.loc[name, f"{metric}_lo"], frame.loc[name, f"{metric}_hi"]) == \
                pytest.approx((float(lo), float(hi)), abs=1e-12)
    long = history.metrics()
    row = long[(long["name"] == "gpt4") & (long["metric"] == "faithfulness")].iloc[0]
    aggregate = rw.evaluate(systems["gpt4"]).aggregate()["faithfulness"]
    assert (row["defined"], row["undefined"], row["not_computable"]) == \
        (aggregate["defined"], aggregate["undefined"], aggregate["not_computable"])


def test_a_name_clash_is_refused_unless_replaced(history, systems):
    history.add(systems["gpt4"], "main")
    with pytest.raises(InputError, match="field 'name'.*already.*--replace"):
        history.add(systems["alpaca_7B"], "main")
    assert history.get("main") == systems["gpt4"]
    history.add(systems["alpaca_7B"], "main", replace=True)
    assert history.get("main") == systems["alpaca_7B"] and len(history.runs()) == 1
    assert history.frame.loc["main", "faithfulness"] == pytest.approx(
        rw.evaluate(systems["alpaca_7B"]).aggregate()["faithfulness"]["mean"])


@pytest.mark.parametrize("kwargs, field", [
    ({"name": ""}, "name"), ({"name": "  "}, "name"), ({"name": 3}, "name"), ({"name": "latest"}, "name"),
    ({"name": "x" * 1001}, "name"), ({"name": "ok", "commit": 12}, "commit"), ({"name": "ok", "judge": ""}, "judge"),
    ({"name": "ok", "accepted": "yes"}, "accepted")])
def test_bad_fields_are_named(history, systems, kwargs, field):
    with pytest.raises(InputError, match=f"field '{field}'"):
        history.add(systems["gpt4"], **kwargs)
    assert not history.path.exists()


def test_bad_sources_are_named(history, systems):
    with pytest.raises(InputError, match="not Scores"):
        history.add(rw.evaluate(systems["gpt4"]), "s")
    with pytest.raises(InputError, match="no samples"):
        history.add([], "empty")
    with pytest.raises(InputError, match="no such file"):
        history.add(history.path.parent / "missing.json", "m")
    with pytest.raises(InputError, match="query_id"):  # a sample the engine refuses names itself
        history.add([{"query_id": "q1", "response_claims": "not a list"}], "bad")
    with pytest.raises(InputError, match="no run history at"):
        history.runs()


def test_untrusted_text_is_stored_as_given(history, systems):
    name, commit = "<b>x</b>\u202e; DROP TABLE runs;--", "'); DELETE FROM runs; --"
    history.add(systems["gpt4"], name, commit=commit, judge="<script>")
    entry = history.entry(name)
    assert (entry.name, entry.commit, entry.judge) == (name, commit, "<script>")
    assert history.runs()["name"].tolist() == [name]


def test_one_file_without_wal_and_a_versioned_schema(history, systems):
    history.add(systems["gpt4"], "a")
    assert sorted(p.name for p in history.path.parent.iterdir()) == ["history.sqlite"]
    with sqlite3.connect(history.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    with pytest.raises(InputError, match=f"schema version '{SCHEMA_VERSION + 1}'.*upgrade ragwidgets"):
        history.runs()


def test_a_file_left_in_wal_mode_is_set_back_by_a_write(history, systems):
    history.add(systems["gpt4"], "a")
    with sqlite3.connect(history.path) as db:
        assert db.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal"
    db.close()
    history.accept("a")
    history.add(systems["alpaca_7B"], "b")
    with sqlite3.connect(history.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    db.close()
    assert sorted(p.name for p in history.path.parent.iterdir()) == ["history.sqlite"]
    assert history.runs()["name"].tolist() == ["a", "b"]


def test_files_that_are_not_a_history(tmp_path):
    text = tmp_path / "notes.sqlite"
    text.write_text("hello, not a database " * 100)
    with pytest.raises(InputError, match="not a run history"):
        History(text).runs()
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE t (x)")
    with pytest.raises(InputError, match="not a ragwidgets run history"):
        History(other).runs()
    with pytest.raises(InputError, match="is a directory"):
        History(tmp_path).runs()


def test_an_empty_history_has_empty_frames(tmp_path):
    history = History(tmp_path / "h.sqlite")
    history._connect(write=True).close()
    assert history.runs().empty and history.metrics().empty and history.frame.empty
    assert history.latest() is None


ADDER = textwrap.dedent("""
    import sys
    from ragwidgets.datasets import refchecker_human
    from ragwidgets.errors import InputError
    from ragwidgets.history_store import History
    runs = refchecker_human("noisy_context")
    history = History(sys.argv[1])
    for k, name in enumerate(sys.argv[2:]):
        try:
            history.add(runs[sorted(runs)[k]], name)
            print("added", name)
        except InputError as err:
            print("refused", name, err)
""")


def test_two_processes_add_at_once(tmp_path):
    path = tmp_path / "shared.sqlite"
    jobs = [subprocess.Popen([sys.executable, "-c", ADDER, str(path), *names], stdout=subprocess.PIPE, text=True)
            for names in (["a1", "a2", "a3", "same"], ["b1", "b2", "b3", "same"])]
    said = [job.communicate(timeout=120)[0] for job in jobs]
    assert all(job.returncode == 0 for job in jobs), said
    runs = History(path).runs()
    assert sorted(runs["name"]) == ["a1", "a2", "a3", "b1", "b2", "b3", "same"]
    assert sum(s.count("added same") for s in said) == 1 and sum(s.count("refused same") for s in said) == 1
    assert History(path).metrics().groupby("name").size().tolist() == [1] * 7


def _layers(chart) -> list[tuple[str, list[dict], dict]]:
    """(mark type, data rows, encoding) of each layer of a layered chart's spec."""
    spec = chart.to_dict()
    return [(layer["mark"]["type"], spec["datasets"][layer["data"]["name"]], layer["encoding"])
            for layer in spec["layer"]]


def test_rw_history_frame_and_chart(tmp_path, systems):
    path = tmp_path / "h.sqlite"
    view = rw.history(path)
    for k, (system, judge) in enumerate([("alpaca_7B", "human"), ("davinci001", "human"), ("gpt4", "gpt-4o"),
                                         ("claude2", "gpt-4o"), ("llama2_70b_chat", None)]):
        view.add(systems[system], system, commit=f"c{k}", judge=judge, accepted=k == 1)
    import ragwidgets.history_store  # noqa: F401  (a submodule import must not replace the facade)
    assert callable(rw.history) and rw.history(path).frame.equals(History(path).frame)
    layers = _layers(view.chart("faithfulness"))
    assert [mark for mark, _, _ in layers] == ["area", "line", "rule", "point", "rule", "text"]
    (band_rows, band), (whisker_rows, whisker), (point_rows, point), (rule_rows, _), (text_rows, text) = \
        [(rows, encoding) for k, (_, rows, encoding) in enumerate(layers) if k != 1]
    assert (whisker["y"]["field"], whisker["y2"]["field"]) == ("lo", "hi") and len(whisker_rows) == 5
    assert (band["y"]["field"], band["y2"]["field"]) == ("lo", "hi")
    frame = view.frame
    assert [(r["run"], r["lo"], r["hi"]) for r in band_rows] == \
        list(zip(frame.index, frame["faithfulness_lo"], frame["faithfulness_hi"]))
    assert [r["mean"] for r in point_rows] == frame["faithfulness"].tolist()
    assert {t["field"] for t in point["tooltip"]} >= {"run", "commit", "judge", "label", "n"}
    assert [r["accepted"] for r in point_rows] == ["not accepted", "accepted"] + ["not accepted"] * 3
    assert [(r["run"], r["said"]) for r in rule_rows] == [("gpt4", "judge: gpt-4o"),
                                                          ("llama2_70b_chat", "judge: not given")]
    assert [r["said"] for r in text_rows] == ["judge: human", "judge: gpt-4o", "judge: not given"]
    assert text["text"]["field"] == "said"
    with pytest.raises(InputError, match="field 'metric'.*its metrics: faithfulness"):
        view.chart("context_precision")


def test_rw_history_compare_is_the_gate_and_explore_opens_two_runs(tmp_path, systems):
    from ragwidgets.analysis.gate import gate

    view = rw.history(tmp_path / "h.sqlite")
    view.add(systems["gpt4"], "base", judge="human", accepted=True)
    view.add(systems["alpaca_7B"], "new", judge="human")
    view.add(systems["alpaca_7B"], "other judge", judge="gpt-4o")
    checked = view.compare()  # the accepted run against the latest
    assert checked.frame["verdict"].tolist() == ["cannot tell"] and "judged differently" in checked.frame["why"][0]
    found = view.compare("base", "new")
    direct = gate(rw.evaluate(systems["gpt4"]), rw.evaluate(systems["alpaca_7B"]),
                  base_judge={"judge": "human"}, new_judge={"judge": "human"})
    pd.testing.assert_frame_equal(found.frame, direct.frame)
    assert found.frame["verdict"].tolist() == ["worse"] and found.exit_code() == 1
    assert view.compare("base", "new", margin=0.5).frame["verdict"].tolist() != ["worse"]
    explorer = view.explore("base", "new")
    assert explorer.runs == ["base", "new"]
    with pytest.raises(InputError, match="same run"):
        view.explore("new", "new")


def _labelled(qid, labels):
    return {"query_id": qid, "query": f"question {qid}?", "response": "r.", "gt_answer": "g.",
            "response_claims": [["s", "p", str(j)] for j in range(len(labels))], "answer2response": labels}


def test_compare_carries_the_judge_s_repeats(tmp_path):
    """Stored records keep label_repeats; compare gives them to the gate as each side's repeats."""
    from ragwidgets.analysis.gate import gate
    from ragwidgets.judges.repeats import combine

    rng = np.random.default_rng(3)
    runs = {}
    for name, rate in (("base", 0.7), ("new", 0.7)):
        truth = rng.random((40, 4)) < rate
        runs[name] = combine([[_labelled(f"s{i}", ["Entailment" if t ^ (rng.random() < .1) else "Neutral"
                                                   for t in row]) for i, row in enumerate(truth)] for _ in range(3)])
    view = rw.history(tmp_path / "h.sqlite")
    for name, records in runs.items():
        view.add(records, name, judge="j")
    assert view.get("base") == runs["base"]
    found = view.compare("base", "new", metrics=["precision"])
    direct = gate(rw.evaluate(runs["base"]), rw.evaluate(runs["new"]), metrics=["precision"],
                  base_repeats=runs["base"], new_repeats=runs["new"], base_judge={"judge": "j", "repeats": 3},
                  new_judge={"judge": "j", "repeats": 3})
    pd.testing.assert_frame_equal(found.frame, direct.frame)
    plain = gate(rw.evaluate(runs["base"]), rw.evaluate(runs["new"]), metrics=["precision"])
    assert found.frame["difference"][0] != pytest.approx(plain.frame["difference"][0])  # means over the repeats


def test_a_table_source_is_stored_as_its_records(history, systems, tmp_path):
    path = tmp_path / "run.parquet"
    pd.DataFrame(systems["gpt4"]).to_parquet(path)
    assert history.add(path, "from parquet").source == str(path)
    assert history.add(pd.DataFrame(systems["gpt4"]), "from a frame").source == "DataFrame (ragchecker)"
    expected = rw.evaluate(systems["gpt4"]).frame
    for name in ("from parquet", "from a frame"):
        pd.testing.assert_frame_equal(rw.evaluate(history.get(name)).frame, expected)


def test_a_run_without_the_metric_breaks_the_trend(tmp_path, systems):
    from ragwidgets.datasets.synthetic import synthetic_run

    view = rw.history(tmp_path / "h.sqlite")
    view.add(synthetic_run(60, seed=1), "s1")
    view.add(systems["gpt4"], "refchecker")  # faithfulness only: no precision
    view.add(synthetic_run(60, seed=2), "s2")
    assert np.isnan(view.frame.loc["refchecker", "precision"])
    layers = _layers(view.chart("precision"))
    (_, band_rows, _), (_, line_rows, _), (_, whisker_rows, _), (_, point_rows, _) = layers[:4]
    assert [r["run"] for r in band_rows] == ["s1", "refchecker", "s2"] and band_rows[1]["mean"] is None
    assert [r["run"] for r in point_rows] == [r["run"] for r in whisker_rows] == ["s1", "s2"]
    spec = view.chart("precision").to_dict()
    assert [layer["mark"].get("invalid") for layer in spec["layer"][:2]] == ["break-paths-filter-domains"] * 2


def test_a_scoring_result_brings_its_judge(history):
    rows = pd.DataFrame({"query_id": [f"q{i}" for i in range(3)], "query": [f"question {i}" for i in range(3)],
                         "target": ["The ferry leaves from pier 9."] * 3, "response": ["The ferry leaves."] * 3,
                         "context": [["The ferry leaves from pier 9."]] * 3})
    judged = rw.RagChecker(judge_model_key="lexical").score(rows)
    entry = history.add(judged, "judged")
    assert (entry.judge, entry.source, entry.n) == ("lexical", "ScoringResult", 3)
    assert history.add(judged, "named", judge="gpt-4o").judge == "gpt-4o"
    pd.testing.assert_frame_equal(rw.evaluate(history.get("judged")).frame, rw.evaluate(judged).frame)
