"""``ragwidgets notes``: failure notes from a terminal.

``summarize RUN NOTES``: per failure mode (a tag of the notes), the samples tagged among the samples
read, the rate with its Clopper–Pearson interval, and, when ``--sampled`` declares how the samples read were
drawn from the failing samples (``--where``), the estimated share of the whole run with its
interval (:func:`~ragwidgets.analysis.failure_modes.mode_table`); then up to ``--examples`` notes
per mode. ``export NOTES OUT``: the notes in force as CSV, Parquet or JSONL by OUT's suffix
(:func:`~ragwidgets.engine.claims.write_notes`). A damaged line of NOTES is one warning on stderr;
bad input is one line naming the file, line and field, exit status 2.
"""

from __future__ import annotations

import argparse
import html
import json
import math
import re
import sys
import warnings
from pathlib import Path

from .errors import InputWarning, RagWidgetsError

SAMPLED = ("none", "random", "all")
FORMATS = ("table", "json", "csv", "markdown")
EXAMPLES = 3  # notes shown per mode (--examples)
MAX_EXAMPLES = 50
SHOWN = 120  # characters of a note's text shown
_SPACE = re.compile(r"\s+")
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")  # controls, bidi


def shown_text(text: str, width: int = SHOWN) -> str:
    """A note's text on one line for a terminal: whitespace runs as one space, a control or bidi
    character as ``⟨U+001B⟩`` (never sent raw to the terminal), cut at ``width`` characters with "…"."""
    text = _UNSAFE.sub(lambda m: f"⟨U+{ord(m.group()):04X}⟩", _SPACE.sub(" ", text).strip())
    return text if len(text) <= width else text[:width - 1] + "…"


def _read_notes(path: str):
    """The notes of a file; each damaged line one warning on stderr."""
    from .notes import read_noting

    notes, damaged = read_noting(path)
    for message in damaged:
        print(f"ragwidgets: warning: {message}", file=sys.stderr)
    return notes


def _scores(run: str, notes):
    """The run scored, carrying the notes; its warnings (and notes naming no sample) on stderr."""
    from .engine import evaluate
    from .engine.evaluate import batch_of
    from .loaders import load_samples

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", InputWarning)
        loaded = load_samples(Path(run), on_error="raise")
        scores = evaluate(batch_of(loaded), notes=notes)
    for w in seen:
        if issubclass(w.category, InputWarning):
            print(f"ragwidgets: warning: {w.message}", file=sys.stderr)
    return scores


def examples(notes, mode: str, k: int, query_ids) -> list[dict]:
    """Up to ``k`` notes in force tagged ``mode`` on samples of ``query_ids``, in the notes' order:
    query_id, claim, note (:func:`shown_text`)."""
    out = []
    for n in notes:
        if len(out) >= k:
            break
        if mode in n.tags and n.query_id in query_ids:
            out.append({"query_id": n.query_id, "claim": n.claim, "note": shown_text(n.note)})
    return out


def summary(args) -> dict:
    """What ``summarize`` shows: the mode table, the design declared and the example notes."""
    from .analysis.expression import ExpressionError
    from .analysis.failure_modes import declared_design, mode_table

    if args.where and args.sampled == "none":
        raise RagWidgetsError("--where names the failing samples the notes' samples were drawn from: give "
                              "--sampled random (a random sample of them was read) or --sampled all")
    notes = _read_notes(args.notes)
    scores = _scores(args.run, notes)
    design = None
    if args.sampled != "none":
        try:
            design = declared_design(scores, where=args.where or "", strategy=args.sampled)
        except ExpressionError as err:  # does not parse, or names no column
            raise RagWidgetsError(f"--where: {err}") from None
    try:
        table = mode_table(scores, design=design, by=args.by)
    except (KeyError, ValueError) as err:  # a --by naming no column; anything else is a bug
        if isinstance(err, RagWidgetsError) or args.by is None:
            raise
        raise RagWidgetsError(f"--by: {err.args[0] if err.args else err}") from None
    ids = set(scores.batch.query_ids)
    modes = list(dict.fromkeys(table["mode"]))
    return {"run": args.run, "notes": args.notes, "by": args.by, "samples": scores.batch.n_samples,
            "read": sum(q in ids for q in notes.query_ids), "notes_in_force": len(notes),
            "design": None if design is None else {"strategy": design.strategy, "where": design.where,
                                                   "population": len(design.population)},
            "table": table, "examples": {m: examples(notes, m, args.examples, ids) for m in modes}}


def _plain(value):
    """A table cell as JSON: NaN as null, numpy numbers as Python's."""
    if hasattr(value, "item"):
        value = value.item()
    return None if isinstance(value, float) and math.isnan(value) else value


def _interval(lo, hi) -> str:
    from .analysis.failure_modes import percent
    return "—" if lo != lo else f"[{percent(lo)}, {percent(hi)}]"


def _rows(table, grouped: bool, estimated: bool) -> tuple[list[str], list[list[str]]]:
    """The header and the cells of the mode table as shown in text (table, markdown); the first one
    (two when ``grouped``) text, the rest numbers."""
    from .analysis.failure_modes import percent
    head = (["group"] if grouped else []) + ["mode", "tagged", "read", "rate", "95% interval"]
    if estimated:
        head += ["share of the run", "95% interval"]
    rows = []
    for r in table.to_dict("records"):
        row = ([shown_text(str(r["group"]), 40)] if grouped else []) + [
            shown_text(r["mode"], 60), f"{r['tagged']:,}", f"{r['read']:,}", percent(r["rate"]),
            _interval(r["lo"], r["hi"])]
        if estimated:
            row += [percent(r["run_rate"]), _interval(r["run_lo"], r["run_hi"])]
        rows.append(row)
    return head, rows


def _heading(s: dict) -> str:
    design = s["design"]
    drawn = ""
    if design is not None:
        pool = (f"the {design['population']:,} failing samples where {design['where']}" if design["where"]
                else f"all {design['population']:,} samples of the run")
        drawn = f"; read at random from {pool}" if design["strategy"] == "random" else f"; {pool}, every one to be read"
    return (f"{s['read']:,} of {s['samples']:,} samples read ({s['notes_in_force']:,} notes in force)"
            + shown_text(drawn, 400))


def _example(n: dict) -> str:
    """An example note on one line: "query_id · claim k: text"."""
    claim = "" if n["claim"] is None else f" · claim {n['claim'] + 1}"  # from 1, as the drill-down
    return f"{shown_text(n['query_id'], 40)}{claim}: {n['note'] or '(no text)'}"


def render(s: dict, fmt: str) -> str:
    """The summary in ``fmt`` (see FORMATS)."""
    table = s["table"]
    grouped = s["by"] is not None
    words = 2 if grouped else 1  # the text columns, left-aligned; the numbers right-aligned
    estimated = s["design"] is not None
    if fmt == "json":
        out = {k: v for k, v in s.items() if k != "table"}
        out["modes"] = [{k: _plain(v) for k, v in r.items()} for r in table.to_dict("records")]
        return json.dumps(out, indent=2, ensure_ascii=False)
    if fmt == "csv":
        from .engine.claims import csv_cells

        return csv_cells(table).to_csv(index=False, lineterminator="\n").rstrip("\n")
    head, rows = _rows(table, grouped, estimated)
    if not rows:
        return _heading(s) + "\nno failure modes: no note carries a tag"
    basis = sorted({b for b in table["basis"] if isinstance(b, str) and b}) if estimated else []
    if fmt == "markdown":
        cell = lambda t: html.escape(t, quote=False).replace("|", "\\|")  # noqa: E731
        lines = [f"**{cell(_heading(s))}**", "", "| " + " | ".join(head) + " |",
                 "|" + "|".join("---" if i < words else "---:" for i in range(len(head))) + "|"]
        lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
        lines += [f"\nRates over the whole run: {cell(b)}" for b in basis]
        for mode, notes in s["examples"].items():
            if notes:
                lines.append(f"\n**{cell(shown_text(mode, 60))}**\n")
                lines += [f"- {cell(_example(n))}" for n in notes]
        return "\n".join(lines)
    widths = [max(len(str(c)) for c in column) for column in zip(head, *rows)]
    text = [_heading(s), ""]
    for row in [head, *rows]:
        text.append("  ".join(c.ljust(w) if i < words else c.rjust(w)
                              for i, (c, w) in enumerate(zip(row, widths))).rstrip())
    text += [f"rates over the whole run: {shown_text(b, 400)}" for b in basis]
    for mode, notes in s["examples"].items():
        if notes:
            text.append(f"\n{shown_text(mode, 60)}")
            text += [f"  {_example(n)}" for n in notes]
    return "\n".join(text)


def cmd_summarize(args) -> int:
    from .engine.claims import SUFFIXES, write_frame

    if not 0 <= args.examples <= MAX_EXAMPLES:
        raise RagWidgetsError(f"--examples is 0 to {MAX_EXAMPLES}, not {args.examples}")
    if args.output and not str(args.output).lower().endswith(SUFFIXES):
        raise RagWidgetsError(f"--output writes {', '.join(SUFFIXES)} (by the file's suffix), not {args.output!r}")
    s = summary(args)
    if args.output:
        write_frame(s["table"], args.output, what="failure-mode table")
        print(f"ragwidgets: wrote {len(s['table']):,} rows to {args.output}", file=sys.stderr)
    print(render(s, args.format))
    return 0


def cmd_export(args) -> int:
    from .engine.claims import SUFFIXES, write_notes

    if not str(args.output).lower().endswith(SUFFIXES):
        raise RagWidgetsError(f"OUT is {', '.join(SUFFIXES)} (by the file's suffix), not {args.output!r}")
    written = write_notes(_read_notes(args.notes), args.output)
    print(f"ragwidgets: wrote {written:,} notes to {args.output}", file=sys.stderr)
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    """The ``notes`` subcommand and its ``summarize`` and ``export``."""
    notes = sub.add_parser("notes", help="failure notes: the failure modes' rates, or the notes exported")
    commands = notes.add_subparsers(dest="notes_command", required=True,
                                    help="summarize: the failure modes' rates; export: the notes as a table")
    summarize = commands.add_parser(
        "summarize", help="per failure mode (a tag): samples tagged, read, the rate and its 95%% interval, "
                          "and example notes")
    summarize.add_argument("run", metavar="RUN",
                           help="the run the notes are on (RAGChecker JSON / JSONL, Parquet, CSV)")
    summarize.add_argument("notes", metavar="NOTES", help="the notes file (JSONL, one note a line)")
    summarize.add_argument("--where", metavar="EXPR",
                           help="with --sampled: the filter expression that chose the failing samples the notes' "
                                "samples were drawn from (default: every sample), e.g. 'faithfulness < 0.5'")
    summarize.add_argument("--sampled", choices=SAMPLED, default="none",
                           help="how the samples read were drawn from the failing samples: none (default: no "
                                "estimate over the run), random (a random sample of them), all (every one is "
                                "read, or will be); with random or all, each mode's share of the whole run is "
                                "estimated with its interval")
    summarize.add_argument("--by", metavar="COL", help="a column of the run's table: the rates per group")
    summarize.add_argument("--format", choices=FORMATS, default="table",
                           help="table (default), json (the table's rows and the examples), csv (the table), "
                                "markdown")
    summarize.add_argument("--examples", metavar="K", type=int, default=EXAMPLES,
                           help=f"notes shown per mode (default {EXAMPLES}; 0: none)")
    summarize.add_argument("--output", metavar="FILE",
                           help="also write the per-mode table as CSV, Parquet or JSONL, by FILE's suffix")
    summarize.set_defaults(func=cmd_summarize)
    export = commands.add_parser("export", help="write the notes in force as CSV, Parquet or JSONL (by OUT's suffix)")
    export.add_argument("notes", metavar="NOTES", help="the notes file (JSONL, one note a line)")
    export.add_argument("output", metavar="OUT", help="the file to write: .csv (tags joined by '; '), .parquet "
                                                      "(tags a list) or .jsonl (a notes file)")
    export.set_defaults(func=cmd_export)
