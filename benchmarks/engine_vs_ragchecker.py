"""Time this engine against ragchecker 0.1.9's own computation.py on N synthetic samples.

    python benchmarks/engine_vs_ragchecker.py --n 100000

Both score the same RAGChecker-format records (string labels), all eleven metrics, with
ragchecker's empty-case zeros (``undefined="zero"``); the script checks that every per-sample
value is identical before it reports times. ragchecker is timed on RAGResult objects built
beforehand (its parsing is not counted); this engine is timed end to end from the records
(validation, label parsing, batching, scoring), and separately scoring an already built Batch
(what a widget toggle or a rescoring costs).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import ragwidgets as rw  # noqa: E402
from ragchecker_peer import load_peer  # noqa: E402

LABELS = np.array(["Entailment", "Neutral", "Contradiction"])


def synthetic(n: int, seed: int = 0) -> list[dict]:
    """Samples shaped like RAGChecker's: 0-12 claims a side, 0-8 passages, ~40% entailment."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        n_resp, n_gt, n_psg = rng.integers(0, 13), rng.integers(0, 13), rng.integers(0, 9)

        def labels(*shape):
            return LABELS[rng.choice(3, size=shape, p=[0.4, 0.45, 0.15])].tolist()

        out.append({
            "query_id": str(i), "query": "q", "gt_answer": "a", "response": "r",
            "retrieved_context": [{"doc_id": f"{i}-{k}", "text": "passage"} for k in range(n_psg)],
            "response_claims": [["s", "p", str(j)] for j in range(n_resp)],
            "gt_answer_claims": [["s", "p", str(j)] for j in range(n_gt)],
            "answer2response": labels(n_resp), "response2answer": labels(n_gt),
            "retrieved2response": labels(n_resp, n_psg), "retrieved2answer": labels(n_gt, n_psg),
        })
    return out


def best_of(repeats: int, fn):
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    peer = load_peer()
    if peer is None:
        sys.exit("install the peer first: pip install --no-deps ragchecker==0.1.9 dataclasses-json")
    computation, RAGResult = peer
    print(f"# python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    print("| N | ragchecker end to end | ragwidgets end to end | ratio | ragchecker computing | "
          "ragwidgets on a built Batch | ratio |")
    print("|---|---|---|---|---|---|---|")
    for n in args.n:
        records = synthetic(n)
        start = time.perf_counter()
        results = [RAGResult.from_dict(r) for r in records]
        t_peer_parse = time.perf_counter() - start

        def run_peer():
            for res in results:
                res.metrics = {}
                for func in computation.METRIC_FUNC_MAP.values():
                    func(res)
            return [res.metrics for res in results]

        t_peer, peer_values = best_of(1 if n >= 100000 else args.repeats, run_peer)
        t_ours, scores = best_of(args.repeats, lambda: rw.evaluate(records, undefined="zero"))
        batch = rw.Batch.from_samples(rw.load_samples(records).samples)
        t_batch, _ = best_of(args.repeats, lambda: rw.evaluate(batch, rw.RAGCHECKER_METRICS, undefined="zero"))
        frame = scores.frame
        for name in rw.RAGCHECKER_METRICS:
            want = np.array([v[name] for v in peer_values], dtype=float)
            got = frame[name].to_numpy()
            if not np.array_equal(want, got):
                bad = int(np.flatnonzero(want != got)[0])
                sys.exit(f"MISMATCH {name} sample {bad}: ragchecker {want[bad]} ours {got[bad]}\n"
                         f"{json.dumps(records[bad])}")
        t_peer_e2e = t_peer_parse + t_peer
        print(f"| {n:,} | {t_peer_e2e:.2f} s | {t_ours:.2f} s | {t_peer_e2e / t_ours:.1f}x | {t_peer:.2f} s "
              f"| {t_batch * 1000:.1f} ms | {t_peer / t_batch:.0f}x |", flush=True)
    print("\nEvery per-sample value of all eleven metrics was identical (np.array_equal) in every row.")


if __name__ == "__main__":
    main()
