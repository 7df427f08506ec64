"""The ragwidgets command line: score results, sweep a scenario, explain one sample, open a tutorial."""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import json
import math
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import traceback
import warnings
from importlib import resources
from pathlib import Path

from . import __version__, tutorials
from .atomic import atomic_write
from .engine import evaluate
from .engine.claims import SUFFIXES as CLAIM_SUFFIXES
from .engine.evaluate import batch_of
from .engine.metrics import format_value, resolve
from .engine.values import MODES, UNDEFINED_POLICIES
from .errors import InputWarning, RagWidgetsError
from ._pages import large_runs
from .loaders import ON_ERROR, gc_paused, load_samples
from .output import REPLACE, without_surrogates
from .reviews import read_noting
from .scenario import EXAMPLES as SCENARIO_EXAMPLES

BUG = 70  # exit status of an internal error (sysexits' EX_SOFTWARE)
RESULT_EXAMPLES = {"ragchecker": "ragchecker_example.json"}
TOUR_FILES = {"results.json": "tour_results.json", "results.jsonl": "tour_results.jsonl",
              "my_scenario.json": "harbor_museum.json", "notes.jsonl": "tour_notes.jsonl"}  # name in the README's tour -> shipped file
MODE_HELP = ("which claims count: all_claims (default); required_only (only claims labelled REQUIRED, "
             "via response_claim_labels / gt_answer_claim_labels or a claim's 'label'); required_and_optional "
             "(both, the required-only values prefixed required_)")
UNDEFINED_NOTE = {
    "null": "Undefined: the metric's denominator is 0 for that sample (never counted as 0). "
            "n/a: the sample lacks the data the metric needs.",
    "zero": "--undefined zero: a RAGChecker metric whose denominator is 0 is reported as 0, as ragchecker "
            "0.1.9 does (the citation metrics stay Undefined). n/a: the sample lacks the data the metric needs.",
}


def _example_results(name: str) -> str:
    if name not in RESULT_EXAMPLES:
        raise RagWidgetsError(f"unknown example {name!r}; known: {', '.join(RESULT_EXAMPLES)}")
    return resources.files("ragwidgets.data").joinpath(RESULT_EXAMPLES[name]).read_text("utf-8")


def _cell(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "Undefined"
    return format_value(value) if isinstance(value, float) else str(value)


def _metric_names(scores: str | None) -> tuple[str, ...]:
    """The metrics ``--scores`` names (all without it)."""
    try:
        return resolve(scores)
    except ValueError as err:
        raise RagWidgetsError(f"--scores: {err}") from None


def _load(args):
    """The loaded input; skipped samples and warnings go to stderr."""
    if (args.input is None) == (args.example is None):
        raise RagWidgetsError("give an INPUT file or --example NAME (not both)")
    source = _example_results(args.example) if args.example else Path(args.input)  # a path, never JSON text
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)  # printed below, once
        loaded = load_samples(source, on_error=args.on_error)
    for message in loaded.warnings:
        print(f"ragwidgets: warning: {message}", file=sys.stderr)
    for err in loaded.errors:
        print(f"skipped {err}", file=sys.stderr)
    if not loaded.samples:
        raise RagWidgetsError("no sample could be scored" + (" (every one was skipped)" if loaded.errors else ""))
    return loaded


def _evaluate(args, loaded):
    """The loaded input scored as the options say; with ``--reviews``, each review that did not
    apply is one line on stderr, as is each damaged line of the reviews file."""
    reviews, notes = read_noting(args.reviews) if args.reviews else (None, [])
    for note in notes:
        print(f"ragwidgets: warning: {note}", file=sys.stderr)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)  # printed below, one line each
        scores = evaluate(batch_of(loaded), _metric_names(args.scores), mode=args.mode, undefined=args.undefined,
                          reviews=reviews)
    for problem in scores.review_problems:
        print(f"ragwidgets: review not applied: {problem}", file=sys.stderr)
    return scores


def cmd_score(args) -> int:
    from .output import write_json, write_jsonl

    if args.claims and (args.workers is not None or args.scheduler):
        raise RagWidgetsError("--claims writes the per-claim table in one process; it is not available with "
                              "--workers/--scheduler yet")
    if args.claims and not str(args.claims).lower().endswith(CLAIM_SUFFIXES):
        raise RagWidgetsError(f"--claims writes {', '.join(CLAIM_SUFFIXES)} (by the file's suffix), not {args.claims!r}")
    if args.workers is not None or args.scheduler:
        if args.reviews:
            raise RagWidgetsError("--reviews is not available with --workers/--scheduler yet: reviews are applied "
                                  "in one process")
        try:
            dask_cli = importlib.import_module("ragwidgets.dask.cli")  # Dask imported only here
        except ImportError as err:
            raise RagWidgetsError(str(err)) from None
        return dask_cli.score(args)
    if args.output or args.overwrite:
        raise RagWidgetsError("--output writes the partitioned output of --workers/--scheduler; "
                              "without them the results go to stdout")
    loaded = _load(args)
    scores = _evaluate(args, loaded)
    args.run = (loaded, scores)  # kept until the process exits (see run)
    if args.claims:
        print(f"ragwidgets: wrote {scores.to_claims(args.claims):,} claims to {args.claims}", file=sys.stderr)
    out = sys.stdout.buffer
    if args.format == "jsonl":
        write_jsonl(scores, out)
    elif args.format == "json":
        extra = {"metrics": scores.aggregate(), "ragchecker_metrics": scores.ragchecker_summary()}
        if loaded.errors:
            extra["errors"] = [{"sample": e.sample, "field": e.field, "message": e.detail} for e in loaded.errors]
        if scores.reviews is not None:
            extra["reviews"] = {"labels": len(scores.reviews), "not_applied": [str(p) for p in scores.review_problems]}
        sys.stdout.flush()
        write_json(scores, out, extra)
    else:
        print(_table(scores))
        print("\n" + UNDEFINED_NOTE[args.undefined])
    out.flush()
    return 1 if loaded.errors else 0


def _table(scores) -> str:
    import pandas as pd

    rows = {}
    for name, agg in scores.aggregate().items():
        mean = "n/a" if agg["defined"] + agg["undefined"] == 0 else _cell(agg["mean"])
        row = {"mean": mean, "defined": agg["defined"], "undefined": agg["undefined"], "n/a": agg["not_computable"]}
        if scores.batch.n_samples <= 8:
            for i, qid in enumerate(scores.batch.query_ids):
                m = scores.metrics(i)
                row[without_surrogates(qid)] = _cell(m[name]) if name in m else "n/a"  # pandas' str cannot hold one
        rows[name] = row
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        return pd.DataFrame.from_dict(rows, orient="index").to_string()


def cmd_sweep(args) -> int:
    import pandas as pd

    from .scenario import Scenario

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
    scores = _evaluate(args, loaded)
    args.run = (loaded, scores)  # kept until the process exits (see run)
    try:
        sample = scores.sample_index(args.sample if args.sample is not None else 0)
    except KeyError as err:
        raise RagWidgetsError(err.args[0]) from None
    ex = scores.explain(sample)
    print(f"query_id {ex.query_id}\n")
    for m in ex.metrics.values():
        print(m.text)
        if m.numerator_items or m.denominator_items:
            print(f"    counted: {', '.join(m.numerator_items) or '-'}  of: {', '.join(m.denominator_items) or '-'}")
    print("\nresponse claims")
    for c in ex.claims:
        print(f"  {c.id} {c.text!r}: {c.verdict}")
        for cit in c.citations or ():
            print(f"      cites {cit.doc_id}: {cit.why}")
    print("\npassages")
    for p in ex.passages:
        where = f"rank {p.rank}" if p.rank else "not retrieved"
        against = p.contradicts_response + p.contradicts_gt
        print(f"  {p.doc_id} ({where}): entails {', '.join(p.entails_response + p.entails_gt) or 'nothing'}"
              + (f"; contradicts {', '.join(against)}" if against else ""))
    return 1 if loaded.errors else 0


def require_jupyterlab() -> None:
    """A RagWidgetsError saying how to get JupyterLab when it is not installed."""
    if importlib.util.find_spec("jupyterlab") is None:
        raise RagWidgetsError("JupyterLab is not installed: pip install jupyterlab (or, in the checkout, "
                              "pip install -e '.[lab]'); headless, try ragwidgets sweep --example harbor-museum")


def tutorial_command(notebook: Path, no_browser: bool = False, port: int = 8888) -> list[str]:
    """The JupyterLab command line that opens ``notebook`` (a tutorial's copy): served from its
    folder on ``port`` exactly (no retry on another port, so the printed address holds), the
    browser sent to the notebook itself, JupyterLab's own start-up lines (several addresses) left
    out. The access token comes in the environment (``JUPYTER_TOKEN``), not the command."""
    require_jupyterlab()
    command = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={notebook.parent}", f"--port={port}",
               "--ServerApp.port_retries=0", f"--LabApp.default_url=/lab/tree/{notebook.name}",
               "--ServerApp.log_level=WARN"]
    if no_browser:
        command.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # JupyterLab refuses root otherwise (containers, CI machines)
    return command


def free_port(preferred: int = 8888) -> int:
    """``preferred`` when nothing listens on it, else a port the system hands out."""
    for candidate in (preferred, 0):
        with socket.socket() as probe:
            try:
                probe.bind(("localhost", candidate))
            except OSError:
                continue
            return probe.getsockname()[1]
    raise RagWidgetsError("no free port for JupyterLab on localhost")


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("localhost", port)) == 0


def _interrupt(_signum, _frame):
    raise KeyboardInterrupt


def cmd_tutorial(args) -> int:
    """Start JupyterLab in its own session (so Ctrl+C reaches this process only), print the one
    address, with the token, once the server answers, and on Ctrl+C stop it (SIGTERM: JupyterLab
    shuts its kernels down) and return 0, without a traceback."""
    if args.list:
        print(tutorials.listing())
        return 0
    require_jupyterlab()  # before a copy is made that nothing would open
    notebook, done = tutorials.copy_to(args.name, args.dir)
    print({"copied": f"Copied the tutorial to {notebook}",
           "kept": f"Opening {notebook} (already there)",
           "kept yours": f"Opening your copy {notebook} (it differs from the shipped one: kept as it is; "
                         "delete it for a fresh copy)"}[done], flush=True)
    port = args.port or free_port()
    command = tutorial_command(notebook.resolve(), args.no_browser, port)
    token = secrets.token_hex(24)
    print(f"Starting JupyterLab for {notebook.name} ...", flush=True)
    server = subprocess.Popen(command, env={**os.environ, "JUPYTER_TOKEN": token}, start_new_session=True)
    # Ctrl+C, a closed terminal or a kill stop JupyterLab (its own session would not get them): one
    # path for all three. SIGINT too, explicitly: a process started from a script's background job
    # inherits SIGINT ignored, and Python then leaves it ignored (a `kill -INT` stopped nothing and
    # left JupyterLab running).
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _interrupt)
    try:
        while server.poll() is None and not _listening(port):
            time.sleep(0.2)
        if server.returncode is not None:
            return server.returncode
        print(f"Open http://localhost:{port}/lab/tree/{notebook.name}?token={token}\n"
              "JupyterLab runs until you press Ctrl+C here.", flush=True)
        return server.wait()
    except KeyboardInterrupt:
        print("\nStopping JupyterLab ...", flush=True)
        server.terminate()
        try:
            server.wait(timeout=30)
        except (subprocess.TimeoutExpired, KeyboardInterrupt):
            server.kill()
            server.wait()
        print("JupyterLab stopped.", flush=True)
        return 0


def cmd_examples(args) -> int:
    target = Path(args.directory)
    target.mkdir(parents=True, exist_ok=True)
    for name, shipped in TOUR_FILES.items():
        path = target / name
        if path.exists():
            print(f"kept {path} (already there)")
            continue
        with atomic_write(path, "wb") as out:  # whole or not at all: a file cut short would be kept next time
            out.write(resources.files("ragwidgets.data").joinpath(shipped).read_bytes())
        print(f"wrote {path}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ragwidgets", description=__doc__)
    parser.add_argument("--version", action="version", version=f"ragwidgets {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    def add_input(p):
        p.add_argument("input", nargs="?", help="RAGChecker results: JSON {'results': [...]} or JSONL, "
                                                "optionally gzipped (.json.gz, .jsonl.gz)")
        p.add_argument("--example", choices=sorted(RESULT_EXAMPLES),
                       help="use a shipped example instead of INPUT (ragchecker: RAGChecker's own two samples)")
        p.add_argument("--scores", help="comma-separated metric names (default: all)")
        p.add_argument("--mode", choices=MODES, default="all_claims", help=MODE_HELP)
        p.add_argument("--undefined", choices=UNDEFINED_POLICIES, default="null",
                       help="null (default): a 0 denominator gives Undefined (null in JSON); zero: ragchecker "
                            "0.1.9's numbers, its empty cases as 0")
        p.add_argument("--on-error", choices=ON_ERROR, default="raise",
                       help="raise (default): stop at the first bad sample (exit status 2); report: skip bad "
                            "samples and JSONL lines (listed on stderr, exit status 1) and use the rest")
        p.add_argument("--reviews", metavar="FILE",
                       help="a reviews file (JSONL, one reviewed label a line): its labels replace the judge's; "
                            "a review that no longer matches its sample is not applied (one line each on stderr)")

    score = sub.add_parser("score", help="score every sample and aggregate")
    add_input(score)
    score.add_argument("--format", choices=("table", "json", "jsonl"), default="table",
                       help="table (default): aggregates, and per sample up to 8 samples; json: every "
                            "sample's values with the reasons for Undefined and not computable, then the "
                            "aggregates; jsonl: one JSON object per sample and line")
    score.add_argument("--workers", type=int, help="score the files of INPUT (a glob) on a local Dask cluster "
                                                   "of N worker processes (pip install 'ragwidgets[dask]')")
    score.add_argument("--scheduler", help="score on a running Dask cluster, e.g. tcp://host:8786")
    score.add_argument("--output", help="with --workers/--scheduler: folder for part-NNNNN.jsonl.gz (the "
                                        "jsonl lines, one part per input file) and summary.json; it must be "
                                        "empty or new, unless --overwrite")
    score.add_argument("--overwrite", action="store_true",
                       help="with --output: remove an earlier run's parts and summary.json from the folder first "
                            "(a folder holding other files is refused)")
    score.add_argument("--output-format", choices=("jsonl.gz", "parquet"), default="jsonl.gz",
                       help="with --output: jsonl.gz (default): the lines of --format jsonl; parquet: one row per "
                            "sample: query_id, partition, each metric (null unless defined) and <metric>_status "
                            "(0 defined, 1 Undefined, 2 not computable)")
    score.add_argument("--claims", metavar="FILE",
                       help="also write the per-claim table (one row per claim: every label and its source, the "
                            "passages that entail / contradict it, hallucinated, self-knowledge, noise-led) as "
                            "CSV, Parquet or JSONL, by FILE's suffix")
    score.set_defaults(func=cmd_score)

    sweep = sub.add_parser("sweep", help="score every state of a scenario")
    sweep.add_argument("scenario", nargs="?", help="scenario JSON file")
    sweep.add_argument("--example", choices=sorted(SCENARIO_EXAMPLES), help="use a shipped scenario")
    sweep.add_argument("--format", choices=("table", "json"), default="table",
                       help="table (default) or json: every state with its metrics")
    sweep.set_defaults(func=cmd_sweep)

    explain = sub.add_parser("explain", help="show how one sample's values are derived")
    add_input(explain)
    explain.add_argument("--sample", help="query_id of the sample (default: the first)")
    explain.set_defaults(func=cmd_explain)

    tutorial = sub.add_parser("tutorial", help="copy a tutorial notebook here and open it in JupyterLab (runs until "
                                               "stopped); --list names them")
    tutorial.add_argument("name", nargs="?", default=tutorials.DEFAULT, choices=list(tutorials.TUTORIALS),
                          help="which tutorial (default harbor-museum): " + "; ".join(
                              f"{t.name}: {t.about}" for t in tutorials.TUTORIALS.values()))
    tutorial.add_argument("--list", action="store_true", help="list the tutorials and stop")
    tutorial.add_argument("--dir", default=".", metavar="FOLDER",
                          help="where the notebook is copied (default: here); a copy already there is opened, "
                               "never overwritten")
    tutorial.add_argument("--no-browser", action="store_true", help="do not open a browser tab")
    tutorial.add_argument("--port", type=int, help="JupyterLab's port (default: 8888, or a free one if that is taken)")
    tutorial.set_defaults(func=cmd_tutorial)

    examples = sub.add_parser("examples", help="copy the README tour's files (results.json, results.jsonl, "
                                               "my_scenario.json, notes.jsonl) into a folder")
    examples.add_argument("directory", nargs="?", default=".", help="where to write them (default: here)")
    examples.set_defaults(func=cmd_examples)
    judge = sub.add_parser("judge", add_help=False, prefix_chars="\0",  # its own parser reads every option
                           help="score raw rows with an LLM judge on an OpenAI-compatible server (--help for options)")
    judge.add_argument("args", nargs="*", help="INPUT --base-url URL --model NAME [--dry-run] ...")
    judge.set_defaults(func=lambda args: importlib.import_module("ragwidgets.scoring.cli").main(args.args))
    from .export import add_parser as add_export  # nbconvert is imported only when export runs
    add_export(sub)
    from .notes_cli import add_parser as add_notes  # analysis imported only when notes runs
    add_notes(sub)
    importlib.import_module("ragwidgets.compare_cli").add_parser(sub)  # analysis imported only when compare runs
    importlib.import_module("ragwidgets.history_cli").add_parser(sub)  # the store imported only when history runs
    return parser


def main(argv=None) -> int:
    return _dispatch(build_parser().parse_args(argv))


def _dispatch(args) -> int:
    """Run the command. Bad input and a system's refusal (a missing folder, a full disk) are one line
    on stderr, exit status 2; any other exception is a bug: its traceback, exit status ``BUG``."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors=REPLACE)  # a lone surrogate in the data is written as U+FFFD
    try:
        # this process is ours: the loaders' and engine's switches on, and one run has no reference
        # cycles worth a collector pass over millions of objects
        with large_runs(), gc_paused():
            return args.func(args)
    except RagWidgetsError as err:
        print(f"ragwidgets: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader (head, less) stopped early: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as err:
        print(f"ragwidgets: error: {err}", file=sys.stderr)
        return 2
    except Exception:
        traceback.print_exc()
        print("ragwidgets: internal error: this is a bug in ragwidgets, not a problem with the input; please "
              "report it with the traceback above", file=sys.stderr)
        return BUG


def run() -> None:
    """The console script. score and explain run with the cyclic collector off for good (turning
    it back on would start a pass over the millions of objects just made, as long as the rest of
    the run), and exit without freeing their input and scores (kept on ``args.run``) one by one;
    the system takes the memory back at once. Other commands exit normally."""
    args = build_parser().parse_args()
    if args.func in (cmd_score, cmd_explain):
        gc.disable()
    status = _dispatch(args)
    if getattr(args, "run", None) is not None:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)


if __name__ == "__main__":
    run()
