"""The ``ragwidgets`` command line: score results, sweep a scenario, explain one sample, open a tutorial."""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pandas as pd

from .engine import evaluate
from .engine.evaluate import MODES
from .engine.explain import format_number
from .errors import RagWidgetsError
from .loaders import load_samples
from .scenario import EXAMPLES as SCENARIO_EXAMPLES
from .scenario import Scenario

RESULT_EXAMPLES = {"ragchecker": "ragchecker_example.json"}
TUTORIALS = {"harbor-museum": "01_harbor_museum.ipynb", "ragchecker-sample": "02_ragchecker_sample.ipynb",
             "scoring": "03_scoring_with_a_judge.ipynb"}
NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"  # the checkout's (editable install)


def _example_results(name: str) -> dict:
    if name not in RESULT_EXAMPLES:
        raise RagWidgetsError(f"unknown example {name!r}; known: {', '.join(RESULT_EXAMPLES)}")
    return json.loads(resources.files("ragwidgets.data").joinpath(RESULT_EXAMPLES[name]).read_text("utf-8"))


def _cell(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "Undefined"
    return format_number(value) if isinstance(value, float) else str(value)


def _load(args):
    if (args.input is None) == (args.example is None):
        raise RagWidgetsError("give an INPUT file or --example NAME (not both)")
    source = _example_results(args.example) if args.example else args.input
    return load_samples(source, on_error=args.on_error)


def cmd_score(args) -> int:
    loaded = _load(args)
    for err in loaded.errors:
        print(f"skipped {err}", file=sys.stderr)
    if not loaded.samples:
        raise RagWidgetsError("no sample could be scored")
    scores = evaluate(loaded.samples, args.scores, mode=args.mode, undefined=args.undefined)
    if args.format == "json":
        out = {
            "results": [dict(r, undefined=scores.reasons(i)) for i, r in enumerate(scores.records())],
            "metrics": scores.aggregate(),
            "ragchecker_metrics": scores.ragchecker_summary(),
        }
        if loaded.errors:
            out["errors"] = [{"sample": e.sample, "field": e.field, "message": e.detail} for e in loaded.errors]
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        aggregate = scores.aggregate()
        rows = {}
        for name, agg in aggregate.items():
            mean = "n/a" if agg["defined"] + agg["undefined"] == 0 else _cell(agg["mean"])
            row = {"mean": mean, "defined": agg["defined"], "undefined": agg["undefined"],
                   "n/a": agg["not_computable"]}
            if len(scores.batch.samples) <= 8:
                for i, s in enumerate(scores.batch.samples):
                    m = scores.metrics(i)
                    row[s.query_id] = _cell(m[name]) if name in m else "n/a"
            rows[name] = row
        with pd.option_context("display.width", 200, "display.max_columns", 30):
            print(pd.DataFrame.from_dict(rows, orient="index").to_string())
        print("\nUndefined: the metric's denominator is 0 for that sample (never counted as 0). "
              "n/a: the sample lacks the data the metric needs.")
    return 1 if loaded.errors else 0


def cmd_sweep(args) -> int:
    if (args.scenario is None) == (args.example is None):
        raise RagWidgetsError("give a SCENARIO file or --example NAME (not both)")
    scenario = Scenario.example(args.example) if args.example else Scenario.load(args.scenario)
    frame = scenario.sweep()
    metrics = [c for c in frame.columns if c not in ("retrieval", "answer", "citation")]
    if args.format == "json":
        states = [{"retrieval": r.retrieval, "answer": r.answer, "citation": r.citation,
                   "metrics": {m: None if math.isnan(getattr(r, m)) else float(getattr(r, m)) for m in metrics}}
                  for r in frame.itertuples(index=False)]
        print(json.dumps({"title": scenario.title, "states": states}, indent=2, ensure_ascii=False))
    else:
        shown = frame.copy()
        for m in metrics:
            shown[m] = shown[m].map(_cell)
        with pd.option_context("display.width", 250, "display.max_rows", 10_000, "display.max_columns", 20):
            print(f"{scenario!r}\n")
            print(shown.to_string(index=False))
    return 0


def cmd_explain(args) -> int:
    loaded = _load(args)
    scores = evaluate(loaded.samples, args.scores, mode=args.mode, undefined=args.undefined)
    ex = scores.explain(args.sample if args.sample is not None else 0)
    print(f"query_id {ex.query_id}\n")
    for m in ex.metrics.values():
        print(m.text)
        if m.numerator_items or m.denominator_items:
            print(f"    counted: {', '.join(m.numerator_items) or '-'}  of: {', '.join(m.denominator_items) or '-'}")
    print("\nresponse claims")
    for c in ex.claims:
        status = "" if c.correct is None else ("correct" if c.correct else "incorrect") + ", "
        print(f"  {c.id} {c.text!r}: {status}supported by {', '.join(c.supported_by) or 'no retrieved passage'}")
        for cit in c.citations or ():
            print(f"      cites {cit.doc_id}: {cit.why}")
    print("\npassages")
    for p in ex.passages:
        where = f"rank {p.rank}" if p.rank else "not retrieved"
        print(f"  {p.doc_id} ({where}): entails {', '.join(p.entails_response + p.entails_gt) or 'nothing'}")
    return 0


def tutorial_command(name: str, no_browser: bool = False, port: int | None = None) -> list[str]:
    """The JupyterLab command line that opens a tutorial notebook of the checkout."""
    notebook = NOTEBOOKS / TUTORIALS[name]
    if not notebook.exists():
        raise RagWidgetsError(f"{notebook} not found: the tutorials live in the repository's notebooks/ "
                              "folder (install from a checkout with pip install -e)")
    command = [sys.executable, "-m", "jupyterlab", str(notebook)]
    if no_browser:
        command.append("--no-browser")
    if port:
        command.append(f"--port={port}")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # JupyterLab refuses root otherwise (containers, CI machines)
    return command


def cmd_tutorial(args) -> int:
    return subprocess.call(tutorial_command(args.name, args.no_browser, args.port))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ragwidgets", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    def add_input(p):
        p.add_argument("input", nargs="?", help="RAGChecker results: JSON {'results': [...]} or JSONL")
        p.add_argument("--example", choices=sorted(RESULT_EXAMPLES), help="use a shipped example instead")
        p.add_argument("--scores", help="comma-separated metric names (default: all)")
        p.add_argument("--mode", choices=MODES, default="all_claims")
        p.add_argument("--undefined", choices=("null", "zero"), default="null",
                       help="zero: ragchecker 0.1.9's numbers, empty cases as 0")
        p.add_argument("--on-error", choices=("raise", "report"), default="raise",
                       help="report: skip bad samples (listed on stderr, exit status 1) and score the rest")

    score = sub.add_parser("score", help="score every sample and aggregate")
    add_input(score)
    score.add_argument("--format", choices=("json", "table"), default="table")
    score.set_defaults(func=cmd_score)

    sweep = sub.add_parser("sweep", help="score every state of a scenario")
    sweep.add_argument("scenario", nargs="?", help="scenario JSON file")
    sweep.add_argument("--example", choices=sorted(SCENARIO_EXAMPLES), help="use a shipped scenario")
    sweep.add_argument("--format", choices=("json", "table"), default="table")
    sweep.set_defaults(func=cmd_sweep)

    explain = sub.add_parser("explain", help="show how one sample's values are derived")
    add_input(explain)
    explain.add_argument("--sample", help="query_id of the sample (default: the first)")
    explain.set_defaults(func=cmd_explain)

    tutorial = sub.add_parser("tutorial", help="open a tutorial notebook in JupyterLab")
    tutorial.add_argument("name", nargs="?", default="harbor-museum", choices=sorted(TUTORIALS))
    tutorial.add_argument("--no-browser", action="store_true")
    tutorial.add_argument("--port", type=int)
    tutorial.set_defaults(func=cmd_tutorial)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (RagWidgetsError, ValueError, KeyError) as err:
        message = err.args[0] if isinstance(err, KeyError) and err.args else err
        print(f"ragwidgets: error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
