"""``ragwidgets history``: a run history kept in one SQLite file (:mod:`ragwidgets.history_store`).

``add RUN --name N``: score RUN and store it, with its records, as N (``--commit``, ``--judge``,
``--accept``; a name already stored is refused unless ``--replace``). ``list``: every run with
its metrics' means and 95% intervals, as a table or JSON. ``accept NAME``: mark a run accepted
(the base ``history:accepted`` names). ``--db PATH`` picks the file (default
``ragwidgets-history.sqlite`` here). Bad input is one line naming the field, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from .engine.metrics import format_value
from .errors import InputWarning
from .notes_cli import shown_text

if TYPE_CHECKING:
    from .history_store import History, RunEntry

FORMATS = ("table", "json")
SHOWN = 40  # characters of a name, commit or judge in the table


def _interval(mean, lo, hi) -> str:
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return "Undefined"
    return f"{format_value(mean)} [{format_value(lo)}, {format_value(hi)}]"


def _said(entry: RunEntry, history: History) -> str:
    """One line: the run added and its metrics with their intervals."""
    long = history.metrics()
    rows = long[long["name"] == entry.name]
    metrics = "; ".join(f"{r.metric} {_interval(r.mean, r.lo, r.hi)}" for r in rows.itertuples())
    return f"added {shown_text(entry.name, SHOWN)} ({entry.n:,} samples) to {history.path}: {metrics or 'no metric'}"


def _history(args) -> History:
    from .history_store import History  # pandas and the analysis imported only when history runs

    return History(args.db)


def cmd_add(args) -> int:
    history = _history(args)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", InputWarning)
        entry = history.add(Path(args.run), args.name, commit=args.commit, judge=args.judge, accepted=args.accept,
                            replace=args.replace)
    for w in seen:
        if issubclass(w.category, InputWarning):
            print(f"ragwidgets: warning: {w.message}", file=sys.stderr)
    print(_said(entry, history))
    return 0


def _plain(v):
    return None if isinstance(v, float) and math.isnan(v) else v


def listing(history: History) -> list[dict]:
    """Every run as JSON-able values: its fields and, per metric, mean, lo, hi, defined, undefined,
    not_computable (null where no sample defines the metric)."""
    long = history.metrics()
    out = []
    for e in history.entries():
        rows = long[long["name"] == e.name]
        out.append({"name": e.name, "time": e.time, "commit": e.commit, "judge": e.judge, "accepted": e.accepted,
                    "n": e.n, "source": e.source, "version": e.version,
                    "metrics": {r["metric"]: {k: _plain(r[k]) for k in ("mean", "lo", "hi")}
                                | {k: int(r[k]) for k in ("defined", "undefined", "not_computable")}
                                for r in rows.to_dict("records")}})
    return out


def table(runs: list[dict]) -> str:
    """The runs as a terminal table: one row per run, one column per metric (mean [lo, hi])."""
    if not runs:
        return "no runs yet"
    metrics = list(dict.fromkeys(m for r in runs for m in r["metrics"]))
    header = ["name", "added", "commit", "judge", "accepted", "n", *metrics]
    rows = [[shown_text(r["name"], SHOWN), r["time"], shown_text(r["commit"] or "-", SHOWN),
             shown_text(r["judge"] or "-", SHOWN), "yes" if r["accepted"] else "", f"{r['n']:,}",
             *(_interval(*(r["metrics"][m][k] for k in ("mean", "lo", "hi"))) if m in r["metrics"] else "-"
               for m in metrics)] for r in runs]
    widths = [max(len(str(row[k])) for row in [header, *rows]) for k in range(len(header))]
    return "\n".join("  ".join(str(cell).ljust(w) for cell, w in zip(row, widths)).rstrip() for row in [header, *rows])


def cmd_list(args) -> int:
    runs = listing(_history(args))
    print(json.dumps(runs, indent=2, ensure_ascii=False) if args.format == "json" else table(runs))
    return 0


def cmd_accept(args) -> int:
    entry = _history(args).accept(args.name)
    print(f"accepted {shown_text(entry.name, SHOWN)} ({entry.time})")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    """The ``history`` subcommand and its ``add``, ``list`` and ``accept``."""
    history = sub.add_parser("history", help="a run history in one SQLite file: add runs, list them, accept one")
    commands = history.add_subparsers(dest="history_command", required=True,
                                      help="add: score a run and store it; list: every run and its metrics; "
                                           "accept: mark a run accepted")

    def add_db(p):
        p.add_argument("--db", metavar="PATH", help="the history file (default: ragwidgets-history.sqlite in this "
                                                    "folder; one SQLite file, no WAL: it can be committed to git)")

    add = commands.add_parser("add", help="score RUN and store it, with its records, under --name")
    add.add_argument("run", metavar="RUN", help="the run: RAGChecker JSON / JSONL (optionally .gz), Parquet or CSV")
    add.add_argument("--name", required=True, help="the run's name in the history (unique)")
    add.add_argument("--commit", metavar="SHA", help="the commit the run was made at")
    add.add_argument("--judge", metavar="J", help="who judged the run (a model name); the trend chart marks a change")
    add.add_argument("--accept", action="store_true", help="mark the run accepted (the base history:accepted names)")
    add.add_argument("--replace", action="store_true", help="replace a run of the same name (added anew)")
    add_db(add)
    add.set_defaults(func=cmd_add)
    listed = commands.add_parser("list", help="every run, oldest first, with its metrics' means and 95%% intervals")
    listed.add_argument("--format", choices=FORMATS, default="table", help="table (default) or json")
    add_db(listed)
    listed.set_defaults(func=cmd_list)
    accept = commands.add_parser("accept", help="mark the run NAME accepted")
    accept.add_argument("name", metavar="NAME", help="the run's name, or latest")
    add_db(accept)
    accept.set_defaults(func=cmd_accept)
