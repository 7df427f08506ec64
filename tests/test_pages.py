"""Inside ``large_runs``, ``small_pages`` turns numpy's huge-page request off inside its block and
gives numpy back the setting it had, nested and from several threads at once (the last block to end
restores it). Outside ``large_runs`` it does nothing: tests/test_process_switches.py."""

import threading

import pytest

from ragwidgets import _pages
from ragwidgets._pages import large_runs, small_pages

switch = _pages._set_madvise_hugepage
pytestmark = pytest.mark.skipif(switch is None, reason="this numpy has no huge-page switch")


@pytest.fixture(autouse=True)
def opted_in():
    with large_runs():
        yield


def setting() -> bool:
    before = switch(False)
    switch(before)
    return before


@pytest.mark.parametrize("before", [True, False])
def test_the_setting_is_off_inside_and_restored_after_nested_blocks(before):
    old = switch(before)
    try:
        with small_pages():
            assert setting() is False
            with small_pages():
                assert setting() is False
            assert setting() is False
        assert setting() is before
        with pytest.raises(ZeroDivisionError):
            with small_pages():
                1 / 0
        assert setting() is before
    finally:
        switch(old)


def test_overlapping_blocks_in_threads_restore_the_first_setting():
    old = switch(True)
    inside, leave = threading.Barrier(3), threading.Event()
    seen = []

    def work():
        with small_pages():
            inside.wait()
            leave.wait()
            seen.append(setting())

    try:
        threads = [threading.Thread(target=work) for _ in range(2)]
        for t in threads:
            t.start()
        inside.wait()  # both threads inside their blocks
        assert setting() is False
        leave.set()
        for t in threads:
            t.join()
        assert seen == [False, False]  # each still inside its block: the first to leave restored nothing
        assert setting() is True
    finally:
        switch(old)
