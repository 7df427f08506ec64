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


@st.composite
def runs(draw):
    records = draw(st.lists(ragchecker_records(labelled=True), min_size=1, max_size=40))
    for i, record in enumerate(records):
        record["query_id"] = f"q{i}"
    cuts = sorted(draw(st.lists(st.integers(0, len(records)), max_size=4)))
    sizes = np.diff([0, *cuts, len(records)]).tolist()
    return records, sizes


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
