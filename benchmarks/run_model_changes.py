"""CPU time of control changes on the run model (InMemoryRun.update, then .view): 14 changes
(5 texts, 5 expressions, 4 brushes) three times, on a JSONL run, in this one process.

    python benchmarks/run_model_changes.py RUN.jsonl LABEL

CPU seconds (time.process_time), since wall time on a shared machine moves with its load.
"""
import sys, time, warnings
import numpy as np
warnings.simplefilter("ignore")
import ragwidgets as rw
from ragwidgets.engine.batch import Batch
from ragwidgets.analysis.runs import Charts, InMemoryRun, Query
path = sys.argv[1]
loaded = rw.load_samples(path)
run = InMemoryRun(rw.evaluate(Batch.from_flat(loaded.flat)))
charts = Charts(run.metrics[0], run.metrics[0], run.metrics[1], "n_passages")
changes = [dict(text=t) for t in ("harbor", "museum", "case 1", "tide", "")] + \
          [dict(expression=e) for e in ("hallucination > 0", "claim_recall < 1 and precision > 0.5", "n_passages >= 4", "faithfulness < 0.5", "")] + \
          [dict(brush=b) for b in ({"metric": "hallucination", "lo": 0.5, "hi": 1.0}, {"metric": "precision", "lo": 0.0, "hi": 0.2}, {"metric": "faithfulness", "lo": 0.8, "hi": 1.0}, {})]
cpu = {"filter": [], "summary+charts": []}
for _ in range(3):
    for ch in changes:
        q = Query(**run.defaults, **ch)
        a = time.process_time(); run.update(q, charts); b = time.process_time(); run.view(q, charts, -1); e = time.process_time()
        cpu["filter"].append(b - a); cpu["summary+charts"].append(e - b)
print(sys.argv[2], {k: f"median {1000*np.median(v):.1f} ms, p95 {1000*np.percentile(v, 95):.1f} ms CPU" for k, v in cpu.items()})
