"""Widget update latency: from a control change to the new view state ready to send.

A "control change" is a trait assignment exactly as a message from the browser applies it
(``widget.set_state({...})``); "ready" means the observer has recomputed the metrics, the
explanation and every view's data and set the ``_view`` trait (the view state already
serialised to the JSON string the comm sends). Measured without a kernel, so the comm send itself is not included.

    python benchmarks/widget_update.py [--repeats 400]

Cases: the Harbor Museum Explorer cycling through its 120 states and through passage toggles;
synthetic samples in the SampleExplorer (50 response claims x 20 passages with 30 ground-truth
claims, and 80 x 60 with 40), toggling passages and selecting claims; a SampleExplorer over a
generated run of ``--run`` samples (100,000 by default; 0 skips it): opening it from a JSONL file,
switching samples, toggling passages (the click's cost must not grow with the run), the size of
the view it sends, and picker searches; and a full sweep of the 120-state Harbor Museum scenario.

Review clicks (the 80 x 60 sample): a review message from the browser
(``{"type": "review", kind, claim, label, doc_id}``, as a key press on a claim row or a matrix
cell sends it) until every metric is recomputed from the reviewed labels and the new view is set;
once in memory, once appending each review to a reviews file (flush + fsync per line). Target:
p95 < 20 ms; the passage toggle of the same sample is the peer in the same run.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import ragwidgets as rw
from ragwidgets.widgets import Explorer, SampleExplorer

LABELS = ("Entailment", "Neutral", "Contradiction")


def synthetic_record(n_claims: int = 50, n_passages: int = 20, n_gt: int = 30, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)

    def labels(*shape):
        return rng.choice(LABELS, size=shape, p=[0.3, 0.6, 0.1]).tolist()

    return {
        "query_id": "synthetic", "query": "A synthetic question?", "gt_answer": "Ground truth.",
        "response": "A long response.",
        "retrieved_context": [{"doc_id": f"P{k:02d}", "text": f"Passage {k} " * 20} for k in range(n_passages)],
        "response_claims": [["subject", "predicate", f"object {j}"] for j in range(n_claims)],
        "gt_answer_claims": [["subject", "predicate", f"truth {i}"] for i in range(n_gt)],
        "answer2response": labels(n_claims), "response2answer": labels(n_gt),
        "retrieved2response": labels(n_claims, n_passages), "retrieved2answer": labels(n_gt, n_passages),
    }


def timed(changes, widget, repeats: int) -> np.ndarray:
    """Milliseconds per change, cycling through ``changes`` (each a dict of trait values)."""
    out = []
    for i in range(repeats):
        change = changes[i % len(changes)]
        t0 = time.perf_counter()
        widget.set_state(change)
        assert widget._view
        out.append((time.perf_counter() - t0) * 1e3)
    return np.array(out)


def harbor_states(explorer: Explorer) -> list[dict]:
    return [{"retrieval": s.retrieval, "answer": s.answer, "citation": s.citation}
            for s in explorer.scenario.states()]


def harbor_toggles(explorer: Explorer) -> list[dict]:
    """Every subset of the four sources as the retrieved set."""
    ids = explorer.scenario.doc_ids
    return [{"retrieved": [d for k, d in enumerate(ids) if (mask >> k) & 1]} for mask in range(2 ** len(ids))]


def sample_toggles(n_passages: int, rng) -> list[dict]:
    ids = [f"P{k:02d}" for k in range(n_passages)]
    return [{"retrieved": [d for d in ids if rng.random() < 0.7]} for _ in range(64)]


def claim_selections(n_claims: int) -> list[dict]:
    return [{"selected": f"claim:R{(j * 7) % n_claims + 1}"} for j in range(n_claims)]


def review_clicks(n_claims: int, n_passages: int, n_gt: int, rng) -> list[dict]:
    """Review messages over random labels: a matrix cell (either side) or a claim's ground-truth label."""
    out = []
    for _ in range(64):
        kind = rng.choice(["retrieved2response", "retrieved2answer", "answer2response", "response2answer"],
                          p=[0.5, 0.3, 0.1, 0.1])
        claims = n_claims if kind in ("retrieved2response", "answer2response") else n_gt
        out.append({"type": "review", "kind": str(kind), "claim": int(rng.integers(claims)),
                    "label": str(rng.choice(LABELS)),
                    "doc_id": f"P{int(rng.integers(n_passages)):02d}" if kind.startswith("retrieved") else None})
    return out


def timed_reviews(messages, widget, repeats: int) -> np.ndarray:
    """Milliseconds per review message, from its arrival to the new view set."""
    out = []
    for i in range(repeats):
        before = widget._view
        t0 = time.perf_counter()
        widget._handle_custom_msg(messages[i % len(messages)], [])
        out.append((time.perf_counter() - t0) * 1e3)
        assert widget._view is not before and not widget.view["review"]["error"]
    return np.array(out)


def large_run(n: int, repeats: int) -> list[tuple[str, np.ndarray]]:
    """SampleExplorer over ``n`` generated samples read from a JSONL file."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from dataset_explorer import write_run
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "run.jsonl"
        write_run(n, path)
        t0 = time.perf_counter()
        explorer = SampleExplorer(str(path))
        rows.append((f"SampleExplorer over {n:,} samples: open from JSONL", np.array([(time.perf_counter() - t0) * 1e3])))
        rng = np.random.default_rng(2)
        switches = [{"sample_index": int(i)} for i in rng.integers(0, n, 64)]
        rows.append((f"{n:,} samples: switch sample", timed(switches, explorer, repeats)))
        ids = [p.doc_id for p in explorer.sample.passages]
        toggles = [{"retrieved": ids[:k]} for k in range(len(ids) + 1)]
        rows.append((f"{n:,} samples: passage toggle", timed(toggles, explorer, repeats)))
        sent = explorer._view.patch or explorer._view.json  # a patch over the sample's base view, else the view
        rows.append((f"{n:,} samples: view sent per click (KB, not ms)", np.array([(len(sent) + len(explorer._view.cells)) / 1e3])))
        searches = ["harbor", "museum hallucination>0", "faithfulness<0.5", "precision=undefined", "case 1"]
        t0 = time.perf_counter()
        explorer.search(searches[0])
        rows.append((f"{n:,} samples: first search (builds the index, scores the run)",
                     np.array([(time.perf_counter() - t0) * 1e3])))
        ms = []
        for i in range(max(20, repeats // 20)):
            t0 = time.perf_counter()
            explorer.search(searches[i % len(searches)])
            ms.append((time.perf_counter() - t0) * 1e3)
        rows.append((f"{n:,} samples: picker search", np.array(ms)))
    return rows


def sweep_ms(repeats: int) -> np.ndarray:
    out = []
    for _ in range(repeats):
        sc = rw.Scenario.harbor()  # fresh: nothing cached, 120 samples parsed and scored
        t0 = time.perf_counter()
        sc.sweep()
        out.append((time.perf_counter() - t0) * 1e3)
    return np.array(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=400)
    parser.add_argument("--run", type=int, default=100_000, help="samples in the large run (0: skip it)")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    rows = []
    harbor = Explorer.harbor()
    timed(harbor_states(harbor), harbor, 120)  # warm: every (answer, citation) batch built once
    rows.append(("Harbor Museum Explorer: bundle / rule change (120 states)",
                 timed(harbor_states(harbor), harbor, args.repeats)))
    rows.append(("Harbor Museum Explorer: passage toggle", timed(harbor_toggles(harbor), harbor, args.repeats)))
    big = SampleExplorer(rw.parse_sample(synthetic_record()))
    toggles = sample_toggles(20, np.random.default_rng(1))
    timed(toggles, big, 10)
    rows.append(("SampleExplorer 50 claims x 20 passages (30 gt claims): passage toggle",
                 timed(toggles, big, args.repeats)))
    real = SampleExplorer(rw.parse_sample(synthetic_record(80, 60, 40)))
    toggles = sample_toggles(60, np.random.default_rng(3))
    timed(toggles, real, 10)
    rows.append(("SampleExplorer 80 claims x 60 passages (40 gt claims): passage toggle",
                 timed(toggles, real, args.repeats)))
    rows.append(("SampleExplorer 80 claims x 60 passages (40 gt claims): select a claim",
                 timed(claim_selections(80), real, args.repeats)))
    clicks = review_clicks(80, 60, 40, np.random.default_rng(4))
    timed_reviews(clicks, real, 10)
    rows.append(("SampleExplorer 80 claims x 60 passages (40 gt claims): review click, metrics and view updated",
                 timed_reviews(clicks, real, args.repeats)))
    with tempfile.TemporaryDirectory() as tmp:
        logged = SampleExplorer(rw.parse_sample(synthetic_record(80, 60, 40)), reviews=str(Path(tmp) / "r.jsonl"))
        timed_reviews(clicks, logged, 10)
        rows.append(("SampleExplorer 80 claims x 60 passages: review click appended to a reviews file (fsync)",
                     timed_reviews(clicks, logged, args.repeats)))
    if args.run:
        rows += large_run(args.run, args.repeats)
    rows.append(("Harbor Museum full sweep, 120 states, cold (parse + score)", sweep_ms(max(5, args.repeats // 40))))
    sc = rw.Scenario.harbor()
    sc.sweep()
    warm = []
    for _ in range(max(5, args.repeats // 40)):
        t0 = time.perf_counter()
        sc.sweep()
        warm.append((time.perf_counter() - t0) * 1e3)
    rows.append(("Harbor Museum full sweep, 120 states, samples cached", np.array(warm)))
    print(f"load average after: {os.getloadavg()}")
    print(f"Python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}; "
          f"{args.repeats} changes per row\n")
    print("| case | runs | p50 | p95 | max |")
    print("|---|---|---|---|---|")
    for name, ms in rows:
        unit = "" if "not ms" in name else " ms"
        print(f"| {name} | {len(ms)} | {np.percentile(ms, 50):.2f}{unit} | {np.percentile(ms, 95):.2f}{unit} | "
              f"{ms.max():.2f}{unit} |")


if __name__ == "__main__":
    main()
