"""A generated run in RAGChecker's results format, for showing scale (not real data).

Each sample has 0-12 claims a side and 0-8 passages; labels are drawn so that a share
``quality`` of the entailment checks entail. Queries and shapes depend only on ``seed``, so two
generated runs with different ``quality`` answer the same queries and differ by a known amount.
"""

from __future__ import annotations

import numpy as np

from ..model import LABEL_SPELLINGS

LABELS = np.array(LABEL_SPELLINGS, dtype=object)
TOPICS = ("harbor", "museum", "lighthouse", "ferry", "tide", "festival", "bridge", "archive")


def synthetic_run(n: int, seed: int = 0, quality: float = 0.4) -> list[dict]:
    """``n`` labelled samples with query_ids "0" ... "n-1"."""
    shape_rng = np.random.default_rng(seed)
    sizes = shape_rng.integers(0, [13, 13, 9], size=(n, 3))
    topics = shape_rng.integers(0, len(TOPICS), size=n)
    n_resp, n_gt, n_psg = sizes.T
    per_sample = n_resp + n_gt + (n_resp + n_gt) * n_psg
    p = [quality, (1 - quality) * 0.75, (1 - quality) * 0.25]
    labels = LABELS[np.random.default_rng([seed, int(quality * 1000)]).choice(3, size=int(per_sample.sum()), p=p)]
    labels = labels.tolist()
    start = 0
    out = []
    for i in range(n):
        r, g, k = int(n_resp[i]), int(n_gt[i]), int(n_psg[i])
        chunk = labels[start:start + per_sample[i]]
        start += int(per_sample[i])
        topic = TOPICS[topics[i]]
        r2r, r2a = chunk[r + g:r + g + r * k], chunk[r + g + r * k:]
        out.append({
            "query_id": str(i), "query": f"What happened at the {topic} in case {i}?",
            "gt_answer": f"The {topic} answer {i}.", "response": f"About the {topic}: answer {i}.",
            "retrieved_context": [{"doc_id": f"{topic}-{j}", "text": f"Passage {j} about the {topic}."}
                                  for j in range(k)],
            "response_claims": [[topic, "has", str(j)] for j in range(r)],
            "gt_answer_claims": [[topic, "has", str(j)] for j in range(g)],
            "answer2response": chunk[:r], "response2answer": chunk[r:r + g],
            "retrieved2response": [r2r[j * k:(j + 1) * k] for j in range(r)],
            "retrieved2answer": [r2a[j * k:(j + 1) * k] for j in range(g)],
        })
    return out
