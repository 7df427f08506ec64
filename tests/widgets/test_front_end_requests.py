"""The DatasetExplorer's requests from the front end treated as untrusted (a dashboard viewer may
send any message): a what-if pattern holds the kernel at most its budget, and the files the
front end names are confined to the folder Python chose, never overwritten unless Python allows."""

import time

import numpy as np
import pytest

import ragwidgets as rw
from ragwidgets.datasets import synthetic_run
from ragwidgets.widgets import dataset


def ask(x, **message):
    x.replies = []
    x.send = lambda content, buffers=None: x.replies.append(content)
    x._handle_custom_msg({**message, "request": 1}, [])
    assert len(x.replies) == 1  # one reply, whatever happened
    return x.replies[0]


def test_a_costly_what_if_pattern_is_answered_with_an_error_within_the_panels_budget(monkeypatch):
    rng = np.random.default_rng(1)
    alphabet = np.array(list("abcdefghijklmnopqrstuvwxyz "))
    records = synthetic_run(300, seed=3)
    for r in records:
        for p in r["retrieved_context"]:
            p["text"] = "".join(alphabet[rng.integers(0, 27, 2500)])  # ~3 MB: ~90 s for this pattern, before
    x = rw.DatasetExplorer(records)
    monkeypatch.setattr(dataset, "WHATIF_SECONDS", 0.5)
    clock = time.monotonic()
    reply = ask(x, type="whatif", text="(?:[a-z][a-z ]{1,9}){100}!")
    assert time.monotonic() - clock < 15
    assert reply["error"].startswith("PatternTooCostly: the text pattern is too costly: stopped after 0.5 s, "
                                     "having matched ")
    assert reply["error"].split(" of ")[1].startswith("300 samples")
    assert "error" not in ask(x, type="whatif", text="^abc")  # a cheap pattern still answers
