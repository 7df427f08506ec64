"""LocalChecker's speed on CPU: checks per second at batch sizes 1-64, and ragwidgets' own time
around the model (chunking, tokenising, feeding, pooling), per (chunk, claim) pair.

    python benchmarks/local_checker.py [--backend onnx|transformers] [--pairs 512] [--repeats 3]

The model is one of the tests' tiny classifiers (tests/local_models.py): for ``onnx`` the
bag-of-words ONNX graph, for ``transformers`` the two-layer BERT of hidden size 16 run by PyTorch
(on one thread). Their own time is next to nothing, so the figure that transfers to a real checker is the overhead per pair: the
time outside ``InferenceSession.run``. A real checker's time per pair (a base-size NLI model at a
few hundred tokens: tens of milliseconds on a laptop CPU) must be measured on your machine; the
overhead is under 10% of it whenever that time is above ten times the overhead printed here.
Each passage is one chunk of about 60 words and each claim about 8; the best of ``--repeats`` runs
is kept (machines are noisy)."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from local_models import random_model, transformers_model  # noqa: E402

from ragwidgets.judges.local import LocalChecker  # noqa: E402

PASSAGE = ("the harbor museum opened in 1890 it has two piers ferries leave hourly the pier is old "
           "a claim about the year the right answer ") * 3
CLAIMS = ["the museum opened in 1890", "it has two piers", "ferries leave hourly", "the pier is old"]


class Timed:
    """An InferenceSession (``run``) or a PyTorch model (called) whose time is summed (the model's own time)."""

    def __init__(self, inner):
        self.inner, self.seconds = inner, 0.0

    def _timed(self, call, *args, **kwargs):
        start = time.perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - start

    def run(self, *args, **kwargs):
        return self._timed(self.inner.run, *args, **kwargs)

    def __call__(self, *args, **kwargs):
        return self._timed(self.inner, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def measure(folder: Path, backend: str, batch: int, pairs: int, repeats: int) -> tuple[float, float, float]:
    """(pairs per second, overhead and model time in microseconds per pair), best of ``repeats``."""
    best = None
    claims = (CLAIMS * (pairs // len(CLAIMS) + 1))[:pairs]
    for _ in range(repeats):
        checker = LocalChecker(folder, backend=backend, batch_size=batch, chunk_words=400, max_length=128)
        classifier = checker.classifier
        classifier._load()
        name = "_session" if backend == "onnx" else "_model"
        timed = Timed(getattr(classifier, name))
        setattr(classifier, name, timed)
        start = time.perf_counter()
        checker._judge(claims, PASSAGE)
        total = time.perf_counter() - start
        got = (pairs / total, 1e6 * (total - timed.seconds) / pairs, 1e6 * timed.seconds / pairs)
        best = got if best is None or got[0] > best[0] else best
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("onnx", "transformers"), default="onnx")
    parser.add_argument("--pairs", type=int, default=512)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.backend == "onnx":
            folder = random_model(Path(tmp) / "tiny", dim=64)
        else:
            import torch

            torch.set_num_threads(1)
            folder = transformers_model(Path(tmp) / "tiny")
        print("| batch size | checks / s | ragwidgets' time per pair (µs) | the model's time per pair (µs) |")
        print("|---:|---:|---:|---:|")
        for batch in (1, 4, 16, 64):
            rate, overhead, model = measure(folder, args.backend, batch, args.pairs, args.repeats)
            print(f"| {batch} | {rate:,.0f} | {overhead:,.0f} | {model:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
