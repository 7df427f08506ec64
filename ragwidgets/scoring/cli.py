"""``ragwidgets judge``: score raw RAG outputs from the command line with an LLM judge.

The judge is an ``OpenAICompatibleJudge`` on ``--base-url`` / ``--model``, or a ``LocalChecker``
(``--checker FOLDER``) for the checks, alone or composed with the LLM (claims and REQUIRED /
OPTIONAL labels from the LLM: ``ComposedJudge``); the LLM's key comes from an
environment variable only (``--api-key-env NAME``; without it ``$OPENAI_API_KEY`` is sent to
api.openai.com and nowhere else). Answers are cached (the user's cache dir, ``--cache``), so an
interrupted or stopped run resumes where it stopped. ``--dry-run`` prints what the run would send
and cost, and sends nothing. ``--repeats K`` asks each check K times and prints the share of
labels that flip; ``--policy`` says which label the scores use. Exit status: 0 done, 2 bad input
or configuration, 3 stopped by ``--max-failures``, 70 a bug of ragwidgets (with its traceback),
130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Optional

import pandas as pd

from ..engine.metrics import format_value
from ..engine.values import MODES
from ..errors import InputWarning, RagWidgetsError
from ..judges.repeats import REPEATS_FIELD, check_repeats
from ..loaders import read_records
from ..output import without_surrogates
from ..reviews import read_noting
from .config import RagChecker
from .result import REASONS_COLUMN

STOPPED, INTERRUPTED = 3, 130
DESCRIPTION = """Score raw RAG outputs with an LLM judge on an OpenAI-compatible server, a local checker
(--checker FOLDER: an ONNX export of an NLI model or grounding checker), or both (claims from the LLM,
checks on this machine).

The API key comes from an environment variable only: --api-key-env NAME, or $OPENAI_API_KEY, which
is sent to api.openai.com and nowhere else. Answers are cached, so an interrupted or stopped run
resumes where it stopped. --dry-run prints what the run would send and cost, and sends nothing.
Exit status: 0 done, 2 bad input or configuration, 3 stopped by --max-failures, 70 a bug of ragwidgets
(with its traceback), 130 interrupted."""


class _RefuseKey(argparse.Action):
    """``--api-key``: refused without repeating it (a key on a command line lands in shell history)."""

    def __call__(self, parser, namespace, values, option_string=None):
        parser.error("the API key is read from an environment variable only: --api-key-env NAME")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ragwidgets judge", description=DESCRIPTION, allow_abbrev=False,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input", type=Path, help="raw rows: .json / .jsonl (RAGChecker records or rows), .csv or .parquet; "
                                      "columns query, target (gt_answer), response, context (retrieved_context)")
    parser.add_argument("--base-url", help="the server's OpenAI-compatible URL, e.g. http://localhost:8000/v1 "
                                           "(needed unless --checker is given)")
    parser.add_argument("--model", help="the LLM judge's model name (with --base-url)")
    parser.add_argument("--checker", type=Path, metavar="FOLDER",
                        help="check claims with a local classifier instead of the LLM: an ONNX export (model.onnx, "
                             "tokenizer.json, config.json; the [local] extra) or a transformers model folder "
                             "(the [torch] extra); claims and REQUIRED/OPTIONAL "
                             "labels still come from the LLM when --base-url is given, else claims are one per "
                             "sentence and REQUIRED/OPTIONAL labels are not judged")
    parser.add_argument("--threshold", type=float, metavar="P",
                        help="with --checker: the support probability at or above which a claim is entailed "
                             "(default 0.5 for a binary checker; a three-way model's most probable label)")
    parser.add_argument("--api-key-env", metavar="NAME", help="environment variable holding the API key")
    parser.add_argument("--api-key", action=_RefuseKey, help=argparse.SUPPRESS)
    parser.add_argument("--scores", help="comma-separated scores (default: all eleven; f1 may be written f1_score)")
    parser.add_argument("--mode", choices=MODES, default="all_claims")
    parser.add_argument("--no-target", action="store_true", help="rows have no target: faithfulness only")
    parser.add_argument("--dry-run", action="store_true", help="print the requests and tokens the run needs; send none")
    parser.add_argument("--format", choices=("table", "json"), default="table")
    parser.add_argument("--output", type=Path, help="also write the results in RAGChecker's format (ragwidgets score "
                                                    "reads them)")
    parser.add_argument("--reviews", type=Path, metavar="FILE",
                        help="a reviews file (JSONL): its labels replace the judge's before scoring; a review that "
                             "does not match its row is not applied (one line each on stderr)")
    parser.add_argument("--cache", help="judge cache: a sqlite file, or a folder (an existing one, or a path ending "
                                        "in /) of one file per answer (default: the user's cache directory)")
    parser.add_argument("--no-cache", action="store_true")
    parser.add_argument("--no-traces", action="store_true",
                        help="cache the judge's answers only, not the prompt and reply behind each (about 1.4 kB a call)")
    parser.add_argument("--max-concurrency", type=int, default=8)
    parser.add_argument("--check-batch-size", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds one request may take in all")
    parser.add_argument("--max-retries", type=int, default=4)
    parser.add_argument("--max-failures", type=int, help="stop once more calls than this failed")
    parser.add_argument("--price-input", type=float, metavar="PER_TOKEN", help="price of an input token")
    parser.add_argument("--price-output", type=float, metavar="PER_TOKEN", help="price of an output token")
    parser.add_argument("--repeats", type=int, default=1, metavar="K",
                        help="ask the judge each check and label K times (claims extracted once); every answer is "
                             "kept (label_repeats in --output) and the share of labels that flip is printed")
    parser.add_argument("--policy", type=_policy, default="majority", metavar="majority|N",
                        help="which repeat's label the scores use: the majority (ties: the earliest repeat's), or "
                             "repeat N (0-based)")
    parser.add_argument("--no-progress", action="store_true")
    return parser


def _policy(text: str):
    """``--policy``: "majority" or a repeat's index."""
    if text == "majority":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'majority' or a repeat index, not {text!r}") from None


def read_rows(path: Path, scorer: RagChecker) -> pd.DataFrame:
    """The rows of ``path`` as the scorer reads them (list cells of a CSV are JSON text; a lone
    surrogate in a JSON string, which a pandas string column cannot hold, is read as U+FFFD)."""
    from .runner import as_frame

    if not path.exists():
        raise RagWidgetsError(f"{path}: no such file")
    suffix = path.suffix.lower()
    if suffix not in (".parquet", ".csv"):
        return as_frame(scorer, without_surrogates(read_records(path)))
    try:
        if suffix == ".parquet":
            return pd.read_parquet(path)
        frame = pd.read_csv(path, keep_default_na=False)
    except ValueError as err:  # pandas' and pyarrow's parse errors
        raise RagWidgetsError(f"{path}: not a readable {suffix[1:]} file ({err})") from None
    for column in frame.columns:
        frame[column] = [_json_cell(v) for v in frame[column]]
    return frame


def _json_cell(value):
    if isinstance(value, str) and value.strip()[:1] in ("[", "{"):
        try:
            return without_surrogates(json.loads(value))
        except ValueError:
            return value
    return value


def check_output(path: Path, option: str = "--output") -> None:
    """A RagWidgetsError naming ``option`` and ``path`` unless a file can be written there: ``path``
    is not a folder, and its folder takes a new file (tried with an empty one, removed at once).
    Run before the first request, so a run is never paid for and then lost."""
    if path.is_dir():
        raise RagWidgetsError(f"{option} {path}: is a folder; give a file's path")
    folder = Path(os.path.realpath(path)).parent
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise RagWidgetsError(f"{option} {path}: cannot be written there ({err.strerror or err})") from None
    os.close(fd)
    os.unlink(probe)


def _label_flips(records: list[dict], scorer: RagChecker) -> pd.DataFrame:
    """Per label kind, the labels whose repeats disagree (:func:`ragwidgets.analysis.label_flips`)."""
    from ..analysis import label_flips, repeat_scores

    if not any(record.get(REPEATS_FIELD) for record in records):  # nothing was judged: every label was given
        return label_flips([])
    return label_flips([s.batch for s in repeat_scores(records, list(scorer.scores)).runs])


def _number(value) -> Optional[float]:
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else value


def _judge(args):
    """The judge the options describe: the LLM on --base-url / --model, a LocalChecker (--checker),
    or both composed (claims and REQUIRED/OPTIONAL labels from the LLM, checks from the checker).
    ValueError for options that do not make a judge."""
    from ..judges import ComposedJudge, LocalChecker, OpenAICompatibleJudge

    cache = None if args.no_cache else (args.cache or "default")
    if args.base_url is None and args.checker is None:
        raise ValueError("give --base-url and --model (an LLM judge), or --checker FOLDER (a local checker), or both")
    if (args.base_url is None) != (args.model is None):
        raise ValueError("--base-url and --model go together")
    if args.threshold is not None and args.checker is None:
        raise ValueError("--threshold applies to --checker")
    llm = None if args.base_url is None else OpenAICompatibleJudge(
        args.model, args.base_url, api_key_env=args.api_key_env, max_concurrency=args.max_concurrency,
        check_batch_size=args.check_batch_size, timeout=args.timeout, max_retries=args.max_retries,
        max_failures=args.max_failures, price_per_input_token=args.price_input,
        price_per_output_token=args.price_output, cache=cache, progress=not args.no_progress,
        keep_traces=not args.no_traces)
    if args.checker is None:
        return llm
    try:
        checker = LocalChecker(args.checker, threshold=args.threshold, cache=cache,
                               progress=not args.no_progress).load()  # a missing back end said before any request
    except ImportError as err:
        raise ValueError(f"--checker {args.checker}: {err}") from None
    return checker if llm is None else ComposedJudge(extract=llm, check=checker)


def main(argv: list[str]) -> int:
    from ..judges import JudgeError, JudgeInterrupted, JudgeRunStopped

    args = build_parser().parse_args(argv)
    scores = [s.strip() for s in args.scores.split(",") if s.strip()] if args.scores else None
    try:  # both only check their options here: a ValueError is a bad option
        scorer = RagChecker(scores_to_compute=scores, mode=args.mode,
                            target_column=None if args.no_target else "target")
        judge = _judge(args)
    except ValueError as err:
        raise RagWidgetsError(str(err)) from None
    try:
        check_repeats(args.repeats, args.policy)
    except ValueError as err:
        raise RagWidgetsError(f"--repeats / --policy: {err}") from None
    if args.output is not None:
        check_output(args.output)
    frame = read_rows(args.input, scorer)
    if args.dry_run:
        plan = scorer.dry_run(frame, judge, repeats=args.repeats)
        with pd.option_context("display.width", 200, "display.max_columns", 20):
            print(plan.table().to_string())
        print(f"\n{plan}. Nothing was sent.")
        return 0
    reviews, notes = read_noting(args.reviews) if args.reviews is not None else (None, [])  # before the judge runs
    for note in notes:
        print(f"ragwidgets judge: warning: {note}", file=sys.stderr)
    try:
        result = scorer.score(frame, judge, repeats=args.repeats, policy=args.policy)
        if reviews is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", InputWarning)  # printed below, one line each
                result = result.reviewed(reviews)
            for problem in result.review_problems:
                print(f"ragwidgets judge: review not applied: {problem}", file=sys.stderr)
    except JudgeInterrupted as err:
        print(f"ragwidgets judge: {err}", file=sys.stderr)
        return INTERRUPTED
    except JudgeRunStopped as err:
        if args.output and err.result is not None:
            err.result.to_ragchecker_json(args.output)
            print(f"ragwidgets judge: the scores of what finished are in {args.output}", file=sys.stderr)
        print(f"ragwidgets judge: {err}", file=sys.stderr)
        return STOPPED
    except JudgeError as err:
        print(f"ragwidgets judge: error: {err}", file=sys.stderr)
        return 2
    if args.output:
        result.to_ragchecker_json(args.output)
    usage = result.usage
    flips = _label_flips(result.records, scorer) if args.repeats > 1 else None
    if args.format == "json":
        out = result.to_ragchecker()
        for record, reasons in zip(out["results"], result.frame[REASONS_COLUMN]):
            record["undefined"] = reasons
        out["metrics"] = {k: {"value": _number(m.value), "defined": m.defined, "undefined": m.undefined}
                          for k, m in result.metrics.items()}
        out["usage"] = vars(usage)
        if flips is not None:
            out["label_flips"] = {kind: {"flipped": int(row.flipped), "labels": int(row.labels),
                                         "pair_share": float(row.pair_share)} for kind, row in flips.iterrows()}
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        with pd.option_context("display.width", 200, "display.max_columns", 20):
            print(result.metrics_frame().to_string(formatters={"value": format_value}))
        print("\nUndefined: the score's denominator is 0, or the judge could not judge what it needs "
              "(never counted as 0; reasons in the json output).")
    if flips is not None:
        shown = ", ".join(f"{kind} {row.flipped}/{row.labels} ({format_value(100 * row.share, percent=True)}%; "
                          f"{format_value(100 * row.pair_share, percent=True)}% per pair of repeats)" for kind, row in flips.iterrows())
        print(f"labels that flip across the {args.repeats} repeats: {shown or 'none judged twice'}", file=sys.stderr)
    print(f"judge: {usage.calls} calls, {usage.requests} requests ({usage.retries} retries), {usage.cache_hits} cache "
          f"hits, {usage.failures} failures, {usage.prompt_tokens} + {usage.completion_tokens} tokens", file=sys.stderr)
    return 0
