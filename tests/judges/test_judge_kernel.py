"""In a real Jupyter kernel: interrupting a cell stops the judge's requests."""

from __future__ import annotations

import time

import pytest

jupyter_client = pytest.importorskip("jupyter_client")


def test_interrupting_a_kernel_cell_stops_the_requests_within_a_second(chat_server, tmp_path):
    chat_server.script.delay = 0.05
    code = f"""
from ragwidgets.judges import CheckJob, OpenAICompatibleJudge
judge = OpenAICompatibleJudge("m", {chat_server.base_url!r}, cache={str(tmp_path / "c.sqlite")!r}, progress=False,
                              max_concurrency=2)
try:
    judge.run([CheckJob([f"claim {{i}}"], f"claim {{i}}") for i in range(400)])
except KeyboardInterrupt as err:
    print(type(err).__name__, "|", err, "|", len(judge.cache))
"""
    km, kc = jupyter_client.manager.start_new_kernel(kernel_name="python3")
    try:
        kc.execute(code)
        deadline = time.monotonic() + 60
        while chat_server.script.requests < 10 and time.monotonic() < deadline:
            time.sleep(0.01)
        pressed = time.monotonic()
        km.interrupt_kernel()
        printed = []
        while True:
            message = kc.get_iopub_msg(timeout=30)
            if message["msg_type"] == "stream":
                printed.append(message["content"]["text"])
            if message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
                break
        stopped = time.monotonic() - pressed
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    name, text, kept = "".join(printed).strip().split(" | ")
    sent = chat_server.script.requests
    assert name == "JudgeInterrupted" and "of 400 jobs had finished" in text
    assert stopped < 1.0 and sent < 40
    assert int(kept) >= 8 and f"{kept} of 400" in text  # every finished answer is in the cache
