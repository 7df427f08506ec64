"""Library code flips no process-wide switch unasked: ``rw.evaluate`` in a kernel leaves the cyclic
garbage collector and numpy's huge-page setting as they were; inside ``rw.large_runs()`` the loading
and scoring steps pause the one and turn the other off while they run, and set both back after
(an exception included)."""

import gc

import pytest

import ragwidgets as rw
from ragwidgets import _pages
from ragwidgets.datasets.synthetic import synthetic_run
from ragwidgets.loaders import gc_paused

switch = _pages._set_madvise_hugepage
needs_switch = pytest.mark.skipif(switch is None, reason="this numpy has no huge-page switch")


@pytest.fixture
def records():
    return synthetic_run(200, seed=3)


@pytest.fixture
def flips(monkeypatch):
    """Every call that sets either switch, in order: ("gc", on) and ("hugepage", on)."""
    seen = []
    disable, enable = gc.disable, gc.enable
    monkeypatch.setattr(gc, "disable", lambda: (seen.append(("gc", False)), disable())[1])
    monkeypatch.setattr(gc, "enable", lambda: (seen.append(("gc", True)), enable())[1])
    if switch is not None:
        monkeypatch.setattr(_pages, "_set_madvise_hugepage", lambda on: (seen.append(("hugepage", on)), switch(on))[1])
    return seen


def hugepage() -> bool | None:
    if switch is None:
        return None
    before = switch(False)
    switch(before)
    return before


@pytest.mark.parametrize("gc_on", [True, False])
def test_evaluate_flips_nothing_by_default(records, flips, gc_on):
    was = gc.isenabled()
    (gc.enable if gc_on else gc.disable)()
    flips.clear()
    pages = hugepage()
    try:
        scores = rw.evaluate(records)
        rw.DatasetExplorer(scores)  # the run model's opening too
        assert flips == []
        assert gc.isenabled() is gc_on and hugepage() == pages
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("gc_on", [True, False])
def test_inside_large_runs_the_switches_flip_while_a_step_runs_and_are_set_back(records, flips, gc_on):
    was = gc.isenabled()
    (gc.enable if gc_on else gc.disable)()
    flips.clear()
    pages = hugepage()
    try:
        with rw.large_runs():
            rw.evaluate(records)
            assert gc.isenabled() is gc_on and hugepage() == pages
        assert ("gc", False) in flips or not gc_on  # a collector the user turned off stays off, untouched
        assert ("gc", True) not in flips or gc_on
        if switch is not None:
            assert ("hugepage", False) in flips
        assert gc.isenabled() is gc_on and hugepage() == pages
    finally:
        (gc.enable if was else gc.disable)()


@needs_switch
def test_the_switches_are_set_back_after_an_exception():
    was, pages = gc.isenabled(), hugepage()
    gc.enable()
    try:
        with pytest.raises(ZeroDivisionError):
            with rw.large_runs(), gc_paused(), _pages.small_pages():
                assert not gc.isenabled() and hugepage() is False
                1 / 0
        assert gc.isenabled() and hugepage() == pages
        with gc_paused(), _pages.small_pages():  # the opt-in ended with its block
            assert gc.isenabled() and hugepage() == pages
    finally:
        (gc.enable if was else gc.disable)()
