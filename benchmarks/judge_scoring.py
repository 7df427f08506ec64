"""The judge layer's own cost: dry runs and judged runs against the loopback chat server of the tests.

    python benchmarks/judge_scoring.py [--n 200 1000]

For each size: N synthetic rows (a two-sentence target, a three-sentence response, 4 passages),
all eleven scores in ``all_claims`` mode with an ``OpenAICompatibleJudge`` (max_concurrency 16,
check_batch_size 8, a fresh sqlite cache) on the deterministic server of
``tests/judges/conftest.py`` answering at once. Times: the dry run before anything is cached; the
run (every request sent; requests per second is the client's and the server's work together, on
one machine); the dry run once all is cached; the rerun answered by the cache. The dry run's
request count is checked against the requests the server received. The baseline: bare httpx
posting the same number of check requests to the same server, 16 at a time (what the judge's
requests would cost without its retries, validation, cache and bookkeeping). Besides the rates,
this process's CPU milliseconds a request for both (the server runs here too, in both): on a
shared machine the CPU per request moves less with the load than the rates do.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import platform
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import pandas as pd

import ragwidgets as rw
from ragwidgets.judges import JudgeCache, OpenAICompatibleJudge

CONFTEST = Path(__file__).resolve().parents[1] / "tests" / "judges" / "conftest.py"


def loopback_server():
    """The tests' fake chat-completions server, started on 127.0.0.1; returns (base_url, script, stop)."""
    spec = importlib.util.spec_from_file_location("judge_test_server", CONFTEST)
    module = sys.modules["judge_test_server"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    script = module.ServerScript()
    server = module._QuietServer(("127.0.0.1", 0), type("Handler", (module._Handler,), {"script": script}))
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/v1", script, server.shutdown


def rows(n: int) -> pd.DataFrame:
    return pd.DataFrame({
        "query": [f"What does museum {i} hold?" for i in range(n)],
        "target": [f"Museum {i} holds maps. Museum {i} holds ships." for i in range(n)],
        "response": [f"Museum {i} holds maps. Museum {i} holds coins. Museum {i} opened early." for i in range(n)],
        "context": [[f"Museum {i} holds maps and ships.", f"Museum {i} opened early.", f"Harbor {i} is old.",
                     f"Museum {i} sells coins."] for i in range(n)],
    })


def bare_httpx_rate(base_url: str, count: int) -> tuple[float, float]:
    """Requests per second of bare httpx posting ``count`` small check prompts, 16 in flight, and
    this process's CPU milliseconds a request (the server's included: it runs here too). A
    connection dropped by the loopback server under load is retried, as the judge retries it."""
    body = {"model": "bench", "messages": [{"role": "system", "content": "Check."},
                                           {"role": "user", "content": "Reference:\nMuseum holds maps.\n\nClaims:\n1. x"}]}

    async def post_all() -> None:
        slots = asyncio.Semaphore(16)
        async with httpx.AsyncClient(limits=httpx.Limits(max_connections=16),
                                     transport=httpx.AsyncHTTPTransport(retries=3)) as client:
            async def one() -> None:
                async with slots:
                    (await client.post(f"{base_url}/chat/completions", json=body)).raise_for_status()

            await asyncio.gather(*(one() for _ in range(count)))

    cpu = time.process_time()
    _, seconds = timed(lambda: asyncio.run(post_all()))
    return count / seconds, 1000 * (time.process_time() - cpu) / count


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, nargs="+", default=[200, 1000], help="row counts")
    args = parser.parse_args()
    base_url, script, stop = loopback_server()
    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    print("| rows | dry run (fresh) | requests | run | requests/s | bare httpx requests/s | CPU a request "
          "| bare httpx CPU a request | dry run (cached) | rerun (cached) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    try:
        for n in args.n:
            frame = rows(n)
            scorer = rw.RagChecker()
            with tempfile.TemporaryDirectory() as folder:
                judge = OpenAICompatibleJudge("bench", base_url, cache=JudgeCache(Path(folder) / "c.sqlite"),
                                              max_concurrency=16, check_batch_size=8, progress=False)
                plan, fresh = timed(lambda: scorer.dry_run(frame, judge))
                before = script.requests
                cpu = time.process_time()
                result, run = timed(lambda: scorer.score(frame, judge))
                sent = script.requests - before
                cpu_each = 1000 * (time.process_time() - cpu) / sent
                # every call the dry run counted reached the server once; a retry (a connection dropped
                # under load) is a request more on the client's side, which the server may not have seen
                assert sent == plan.calls == result.usage.requests - result.usage.retries, (
                    sent, plan.calls, result.usage.requests, result.usage.retries)
                cached_plan, cached = timed(lambda: scorer.dry_run(frame, judge))
                assert cached_plan.calls == 0
                again, rerun = timed(lambda: scorer.score(frame, judge))
                assert again.usage.requests == 0 and script.requests - before == sent
                bare, bare_cpu = bare_httpx_rate(base_url, sent)
                print(f"| {n:,} | {fresh:.2f} s | {sent:,} | {run:.2f} s | {sent / run:,.0f} | {bare:,.0f} "
                      f"| {cpu_each:.2f} ms | {bare_cpu:.2f} ms | {cached:.2f} s | {rerun:.2f} s |")
    finally:
        stop()
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
