"""rw.evaluate(..., engine="dask") against the single-process engine, on a 2-worker LocalCluster."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from fractions import Fraction

import dask
import dask.dataframe as dd
import distributed
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragwidgets as rw
from ragwidgets.dask.totals import finish, merge_runs
from ragwidgets.datasets.synthetic import synthetic_run
from ragwidgets.engine import MODES
from ragwidgets.errors import InputError
from strategies import ragchecker_records  # tests/strategies.py (path set in conftest)


def assert_same(dask_scores, single):
    """Per sample: values bit for bit and statuses; aggregates: counts equal, means the exact mean."""
    frame = dask_scores.frame.compute().reset_index(drop=True)
    assert frame["query_id"].tolist() == list(single.batch.query_ids)
    assert dask_scores.names == single.names
    for part in single.parts:
        for shown, value, _, name in part.columns():
            np.testing.assert_array_equal(frame[shown].to_numpy(), value)  # NaN matches NaN
            np.testing.assert_array_equal(frame[shown + "_status"].to_numpy(), part.code[name])
    ours, theirs = dask_scores.aggregate(), single.aggregate()
    assert ours.keys() == theirs.keys()
    for name, agg in theirs.items():
        counts = {k: v for k, v in agg.items() if k != "mean"}
        assert {k: v for k, v in ours[name].items() if k != "mean"} == counts
        if agg["mean"] is None:
            assert ours[name]["mean"] is None
            continue
        defined = frame.loc[frame[name + "_status"] == 0, name].tolist()
        assert ours[name]["mean"] == float(sum(map(Fraction, defined)) / len(defined))
        assert ours[name]["mean"] == pytest.approx(agg["mean"], rel=1e-12, abs=1e-15)


def assert_same_aggregate(ours: dict, theirs: dict):
    """Counts equal; means equal to the last bits (ours is the exact mean rounded once, numpy's is summed)."""
    assert ours.keys() == theirs.keys()
    for name, agg in theirs.items():
        assert {k: v for k, v in ours[name].items() if k != "mean"} == {k: v for k, v in agg.items() if k != "mean"}
        assert ours[name]["mean"] == (None if agg["mean"] is None else pytest.approx(agg["mean"], rel=1e-12))


@st.composite
def runs(draw):
    records = draw(st.lists(ragchecker_records(labelled=True), min_size=1, max_size=40))
    for i, record in enumerate(records):
        record["query_id"] = f"q{i}"
    cuts = sorted(draw(st.lists(st.integers(0, len(records)), max_size=4)))
    sizes = np.diff([0, *cuts, len(records)]).tolist()
    return records, sizes


# Hypothesis compares the global ``random`` state before and after each draw; the client's event-loop
# thread (distributed's connect and retry jitter) may draw from it meanwhile, which Hypothesis then
# reports as this strategy's use of ``random`` (seen once in three loaded runs). Not this test's doing.
@pytest.mark.filterwarnings("ignore:Do not use the `random` module inside strategies")
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(run=runs(), mode=st.sampled_from(MODES), undefined=st.sampled_from(["null", "zero"]),
       gz=st.booleans())
def test_files_on_the_cluster_equal_one_process(client, parts_writer, tmp_path_factory, run, mode, undefined, gz):
    records, sizes = run
    folder = tmp_path_factory.mktemp("run")
    parts_writer(folder, records, sizes, gz)
    scores = rw.evaluate(str(folder / "part-*"), engine="dask", mode=mode, undefined=undefined)
    assert_same(scores, rw.evaluate(records, mode=mode, undefined=undefined))


def test_a_dataframe_of_records_equals_one_process(client):
    records = synthetic_run(600, seed=7)
    for r in records[::5]:
        del r["retrieved2answer"]  # a column missing from some records: NaN there, not computable
    with dask.config.set({"dataframe.convert-string": False}):
        frame = dd.from_pandas(pd.DataFrame(records), npartitions=5)
    scores = rw.evaluate(frame, ["precision", "claim_recall", "context_precision", "f1"], engine="dask")
    single = rw.evaluate(records, ["precision", "claim_recall", "context_precision", "f1"])
    assert_same(scores, single)
    assert scores.ragchecker_summary() == single.ragchecker_summary()
    top = scores.top("claim_recall", 5, smallest=True)
    expected = single.frame.sort_values("claim_recall", kind="stable")["claim_recall"].head(5).tolist()
    assert top["claim_recall"].tolist() == expected


def test_a_worker_killed_mid_run_gives_the_same_answer(client, parts_writer, tmp_path):
    records = synthetic_run(12_000, seed=11)
    parts_writer(tmp_path, records, [500] * 24)
    scores = rw.evaluate(str(tmp_path / "*.jsonl.gz"), engine="dask")
    futures = client.compute(scores.partition_totals())
    next(distributed.as_completed(futures))
    busy = [worker for worker, keys in client.processing().items() if keys]
    assert busy, "every partition finished before a worker could be killed"
    os.kill(client.run(os.getpid, workers=busy[:1])[busy[0]], signal.SIGKILL)
    totals = merge_runs(*client.gather(futures))
    assert busy[0] not in client.scheduler_info()["workers"]
    client.wait_for_workers(2, timeout=60)  # the nanny starts a new one
    assert finish(totals.metrics) == scores.aggregate()
    assert_same(scores, rw.evaluate(records))


def test_a_bad_sample_names_its_file_sample_and_field(client, parts_writer, tmp_path):
    records = synthetic_run(20, seed=1)
    records[13]["answer2response"] = "Entailment"
    parts_writer(tmp_path, records, [10, 10])
    with pytest.raises(InputError) as caught:
        rw.evaluate(str(tmp_path / "*.gz"), engine="dask").aggregate()
    message = str(caught.value)
    assert "part-001.jsonl.gz" in message and "'13'" in message and "answer2response" in message
    with pytest.raises(InputError, match="no file matches"):
        rw.evaluate(str(tmp_path / "nothing-*.jsonl"), engine="dask")


def test_lists_turned_to_text_by_dask_are_refused_before_any_work():
    frame = dd.from_pandas(pd.DataFrame(synthetic_run(4)), npartitions=1)  # convert-string on by default
    with pytest.raises(InputError, match="convert-string"):
        rw.evaluate(frame, engine="dask")


def test_nothing_of_dask_is_imported_by_the_single_process_engine():
    code = ("import sys, ragwidgets as rw; from ragwidgets.datasets.synthetic import synthetic_run; "
            "rw.evaluate(synthetic_run(3)).aggregate(); "
            "print([m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')])")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "[]"


def test_per_group_aggregates_equal_one_process_per_group(client, parts_writer, tmp_path):
    records = synthetic_run(900, seed=3)
    systems = ["a", "b", "c"]
    folder = tmp_path / "runs"
    for k, system in enumerate(systems):
        (folder / system).mkdir(parents=True)
        parts_writer(folder / system, records[k * 300:(k + 1) * 300], [100, 200])
    scores = rw.evaluate(str(folder / "*" / "*.jsonl.gz"), engine="dask",
                         by={"system": lambda path: path.split(os.sep)[-2]})
    by_system = scores.aggregate("system")
    assert set(by_system) == set(systems)
    for k, system in enumerate(systems):
        assert_same_aggregate(by_system[system], rw.evaluate(records[k * 300:(k + 1) * 300]).aggregate())
    frame = scores.frame.compute()
    assert sorted(frame["system"].unique()) == systems and sorted(frame["partition"].unique()) == list(range(6))
    assert sum(agg["precision"]["defined"] + agg["precision"]["undefined"] + agg["precision"]["not_computable"]
               for agg in by_system.values()) == scores.samples == 900
    with pytest.raises(KeyError, match="no group column 'model'"):
        scores.aggregate("model")


def test_group_columns_of_a_dataframe_and_their_combinations(client):
    records = synthetic_run(400, seed=9)
    data = pd.DataFrame(records).assign(system=["x", "y"] * 200, split=["dev"] * 100 + ["test"] * 300)
    with dask.config.set({"dataframe.convert-string": False}):
        frame = dd.from_pandas(data, npartitions=4)
    scores = rw.evaluate(frame, ["precision", "hallucination"], engine="dask", by=["system", "split"]).persist()
    pairs = scores.aggregate(["system", "split"])
    assert set(pairs) == {("x", "dev"), ("y", "dev"), ("x", "test"), ("y", "test")}
    for (system, split), agg in pairs.items():
        rows = data[(data.system == system) & (data.split == split)]
        assert_same_aggregate(agg, rw.evaluate(rows.drop(columns=["system", "split"]).to_dict("records"),
                                               ["precision", "hallucination"]).aggregate())
    for system, agg in scores.aggregate("system").items():
        rows = data[data.system == system].drop(columns=["system", "split"]).to_dict("records")
        assert_same_aggregate(agg, rw.evaluate(rows, ["precision", "hallucination"]).aggregate())


def test_a_query_id_in_two_files_is_named_with_both_files(client, parts_writer, tmp_path):
    records = synthetic_run(30, seed=2)
    records[25]["query_id"] = records[4]["query_id"]
    parts_writer(tmp_path, records, [10, 10, 10])
    scores = rw.evaluate(str(tmp_path / "*.gz"), engine="dask")
    with pytest.raises(InputError) as caught:
        scores.aggregate()
    message = str(caught.value)
    assert f"query_id {records[4]['query_id']!r} is used 2 times" in message
    assert "part-000.jsonl.gz" in message and "part-002.jsonl.gz" in message and "part-001" not in message


def test_samples_without_query_id_are_refused_on_the_cluster(client, parts_writer, tmp_path):
    records = synthetic_run(8, seed=4)
    del records[5]["query_id"]
    parts_writer(tmp_path, records, [4, 4])
    with pytest.raises(InputError, match=r"part-001.jsonl.gz.*1 sample\(s\) have no query_id"):
        rw.evaluate(str(tmp_path / "*.gz"), engine="dask").aggregate()


def test_on_error_report_skips_bad_samples_and_names_them(client, parts_writer, tmp_path):
    records = synthetic_run(40, seed=6)
    records[3]["answer2response"] = "Entailment"
    records[27]["retrieved_context"] = 5
    parts_writer(tmp_path, records, [20, 20])
    scores = rw.evaluate(str(tmp_path / "*.gz"), engine="dask", on_error="report")
    good = [r for i, r in enumerate(records) if i not in (3, 27)]
    assert_same_aggregate(scores.aggregate(), rw.evaluate(good).aggregate())
    assert scores.samples == 38
    assert [("part-000" in e.sample, e.field) for e in scores.errors] == [(True, "answer2response"),
                                                                         (False, "retrieved_context")]
    assert scores.frame.compute()["query_id"].tolist() == [r["query_id"] for r in good]


def test_on_error_report_keeps_group_values_on_their_rows(client):
    records = synthetic_run(12, seed=8)
    records[2]["answer2response"] = "Entailment"
    data = pd.DataFrame(records).assign(system=[f"s{i % 3}" for i in range(12)])
    with dask.config.set({"dataframe.convert-string": False}):
        frame = dd.from_pandas(data, npartitions=2)
    scores = rw.evaluate(frame, engine="dask", on_error="report", by="system")
    rows = scores.frame.compute()
    assert rows.set_index("query_id")["system"].to_dict() == {
        r["query_id"]: f"s{i % 3}" for i, r in enumerate(records) if i != 2}
    assert len(scores.errors) == 1 and "partition 0" in scores.errors[0].sample
