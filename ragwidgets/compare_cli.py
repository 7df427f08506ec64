"""``ragwidgets compare BASE NEW [NEW ...]``: the regression gate a CI job runs.

Each side is any run source ``ragwidgets score`` reads (JSON, JSONL, Parquet, CSV, gzipped or not),
or ``history:latest`` / ``history:accepted`` / ``history:NAME`` from the run history given by
``--history PATH`` (:class:`ragwidgets.history_store.History`; its default file without it), judged as
the history says. Both are scored by the same loader and
engine as ``score``; records that carry the judge's repeats (``label_repeats``) bring the judge's
variance into the interval when both sides do. Each NEW run is gated against BASE
(:func:`ragwidgets.analysis.gate.gate`): per metric, the paired difference on the shared queries
with its interval (Holm over the metrics gated), the minimum detectable effect, and a verdict:
worse, better, no detectable change, or cannot tell (with the reason).

Exit status: 0 no regression; 1 a metric of a NEW run is worse, or the A/A check's false-alarm
rate is above its nominal rate (with ``--fail-on-regression`` or ``--strict``; without either the
verdicts are reported and the status is 0); 2 bad input (one line on stderr naming the file and
field); 4 a metric cannot be told (with ``--strict``; a regression's 1 comes first).

"No detectable change" needs a tolerance: ``--margin`` (a fall that is no regression) or
``--max-mde`` (with margin 0, the fall the data must rule out); without either, a metric that did
not change significantly is "cannot tell", so that thin data never pass ``--strict``.

Formats (``--format``; ``--output FILE`` writes it to FILE and the table to stdout):

- ``table``: a line per run pair, then per metric: verdict, difference [lo, hi], MDE, why;
- ``json``: ``{"format": 1, "level", "exit_code", "base": SIDE, "runs": [{"new": SIDE, "said",
  "regressed", "cannot_tell", "metrics": [ROW, ...]}], "aa": AA or null}`` where SIDE is
  ``{"source", "samples", "repeats", "judge"}``, ROW holds :data:`ROW_KEYS` (numbers, null where there
  are none) and AA is :func:`~ragwidgets.analysis.gate.aa_false_alarms`' result with the run's
  ``source``;
- ``junit``: JUnit XML, one testsuite per NEW run, one testcase per metric: a ``failure`` when
  worse, ``skipped`` (with the reason) when it cannot be told;
- ``markdown``: a pull-request comment: the verdicts per NEW run, and for each worse metric the
  queries that moved most with the claims whose labels changed
  (:func:`~ragwidgets.analysis.changes.claim_changes`). Text from the runs is escaped: it renders
  as text, never as markup or HTML.

``--aa RUN`` checks the gate itself: its false-alarm rate on A/A pairs drawn from RUN
(:func:`~ragwidgets.analysis.gate.aa_false_alarms`, the repeats' halves when RUN carries them),
with its Monte-Carlo error, under the options given; BASE and NEW may then be left out.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import warnings
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .atomic import atomic_write
from .errors import InputWarning, RagWidgetsError

FORMATS = ("table", "json", "junit", "markdown")
HISTORY = "history:"
ROW_KEYS = ("metric", "direction", "shared", "base_mean", "new_mean", "difference", "lo", "hi", "p",
            "p_adjusted", "margin", "mde", "verdict", "why")
OK, REGRESSION, CANNOT_TELL = 0, 1, 4  # 2, bad input, is the CLI's (ragwidgets.cli)
WORST_QUERIES = 5  # queries shown per worse metric in the markdown
CLAIMS_SHOWN = 6  # changed claims shown per query there
SHOWN = 160  # characters of a query's or claim's text shown in the markdown
AA_DRAWS = 200
EXIT_HELP = ("exit status: 0 no regression; 1 a metric is worse, or the --aa false-alarm rate is above its "
             "nominal rate (with --fail-on-regression or --strict); 2 bad input (one line on stderr); 4 a metric "
             "cannot be told (with --strict)")
DESCRIPTION = ("Gate NEW run(s) against BASE, per metric: worse, better, no detectable change (needs --margin or "
               "--max-mde), or cannot tell, with why.")


@dataclass
class Side:
    """One run of the comparison: ``source`` as given, its ``scores``, ``repeats`` (its records
    when they carry the judge's repeats, else None) and ``judge`` (who judged it, as its history
    entry says; None: not said)."""

    source: str
    scores: Any
    repeats: list | None
    judge: str | None = None

    @property
    def samples(self) -> int:
        return self.scores.batch.n_samples

    def said(self) -> dict:
        return {"source": self.source, "samples": self.samples, "repeats": self.n_repeats, "judge": self.judge}

    @property
    def n_repeats(self) -> int | None:
        return None if self.repeats is None else _repeats(self.repeats)

    def judged(self) -> dict:
        """Who judged the run, as :func:`~ragwidgets.analysis.compare.judge_info` reads it."""
        return {"judge": self.judge, "repeats": self.n_repeats}


@dataclass
class Result:
    """A NEW run gated against BASE."""

    new: Side
    gate: Any  # ragwidgets.analysis.gate.Gate


# ---------------------------------------------------------------------------- input


def margins(text: str | None) -> float | dict[str, float]:
    """``--margin``: one number for every metric, or ``metric=number,...``; each at least 0."""
    if text is None:
        return 0.0
    if "=" not in text:
        return _margin(text, "--margin")
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        out[_metric_names(name.strip(), "--margin")[0]] = _margin(value, f"--margin {name.strip()}")
    if not out:
        raise RagWidgetsError("--margin: give a number or metric=number,...")
    return out


def _margin(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise RagWidgetsError(f"{where}: {text.strip()!r:.40} is not a number") from None
    if not (math.isfinite(value) and value >= 0):
        raise RagWidgetsError(f"{where}: a margin is a number of at least 0, not {text.strip()!r:.40}")
    return value


def _metric_names(text: str, where: str) -> tuple[str, ...]:
    from .engine.metrics import resolve

    try:
        return resolve(text)
    except ValueError as err:
        raise RagWidgetsError(f"{where}: {err}") from None


def _repeats(records) -> int:
    from .judges.repeats import repeats_of

    return repeats_of(records)


def _history(path: str | None, spec: str) -> tuple[list, str | None]:
    """The records ``history:latest|accepted|NAME`` names in the run history at ``path`` (None: the
    history's default file) and the judge it was added with."""
    from .history_store import History

    history, key = History(path), spec[len(HISTORY):]
    return history.get(key), history.entry(key).judge


def with_judge(side: Side, judge: str | None, flag: str) -> Side:
    """``side`` with ``judge`` (its ``flag``'s value) as who judged it: filled in where its source
    does not say (a file); a history entry that names another judge is an error."""
    if judge is None:
        return side
    if side.judge is not None and side.judge != judge:
        raise RagWidgetsError(f"{flag} {judge}: {side.source} was judged by {side.judge}, as its history says")
    side.judge = judge
    return side


def judges_said(base: Side, new: Side) -> str:
    """'' when both sides' judges are known; else a line saying that runs judged differently
    cannot be told apart, and how to say who judged them."""
    unknown = [role for role, side in (("BASE", base), ("NEW", new)) if side.judge is None]
    if not unknown:
        return ""
    return (f"judge unknown for {' and '.join(unknown)}: a change of judge would read as a change of system; "
            "name them (--base-judge / --new-judge, or ragwidgets history add --judge)")


def load_side(spec: str, role: str, history: str | None, metrics: tuple[str, ...] | None) -> Side:
    """A run as ``score`` reads it (its loaders and engine, one code path), scored on ``metrics``
    (None: all); warnings and skipped samples on stderr. A bad file or sample is a RagWidgetsError
    naming ``role`` and the file."""
    import msgspec

    from .engine import evaluate
    from .engine.evaluate import batch_of
    from .loaders import load_samples, read_records

    try:
        source, judge = _history(history, spec) if spec.startswith(HISTORY) else (Path(spec), None)
        _refuse_csv_repeats(source)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always", InputWarning)
            # a history's records as JSON text: the loaders' fast path (at 100k, 1.6 CPU s instead of 3.7)
            loaded = load_samples(msgspec.json.encode(source) if isinstance(source, list) else source,
                                  on_error="raise")
            if not loaded.samples:
                raise RagWidgetsError("no sample to compare")
            scores = evaluate(batch_of(loaded), metrics)
    except RagWidgetsError as err:
        raise RagWidgetsError(f"{role} {spec}: {err}") from None
    for w in seen:
        if issubclass(w.category, InputWarning):
            print(f"ragwidgets: warning: {role} {spec}: {w.message}", file=sys.stderr)
    repeats = None
    if loaded.flat is None:  # the fast path reads only RAGChecker's own fields: no label_repeats there
        records = source if isinstance(source, list) else read_records(source) if _is_json(source) else \
            _table_repeats(source)
        if any(isinstance(r, dict) and r.get("label_repeats") for r in records):
            repeats = records
    return Side(spec, scores, repeats, judge)


def _table_repeats(source) -> list:
    """The records of a Parquet file that has a ``label_repeats`` column (a struct of label lists;
    a field a row lacks, null, left out), else []."""
    path = Path(source)
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        if "label_repeats" not in pq.read_schema(path).names:
            return []
        records = pq.read_table(path).to_pylist()
        for record in records:
            if isinstance(record.get("label_repeats"), dict):
                record["label_repeats"] = {k: v for k, v in record["label_repeats"].items() if v is not None}
        return records
    return []


def _refuse_csv_repeats(source) -> None:
    """A CSV cannot hold the judge's repeats: a ``label_repeats`` column there is an error, not a
    run silently gated without its judge's variance."""
    name = str(source).lower().removesuffix(".gz")
    if isinstance(source, Path) and name.endswith((".csv", ".tsv")) and source.is_file():
        import pandas as pd

        try:
            columns = pd.read_csv(source, nrows=0, sep="\t" if name.endswith(".tsv") else ",").columns
        except (ValueError, OSError, UnicodeDecodeError):
            return  # the loader says what is wrong with it
        if "label_repeats" in columns:
            raise RagWidgetsError("a label_repeats column in a CSV is not read; give the run as JSON, JSONL or "
                                  "Parquet to gate it with the judge's repeats")


def _is_json(source) -> bool:
    name = str(source).lower().removesuffix(".gz")
    return isinstance(source, (str, Path)) and name.endswith((".json", ".jsonl"))


# ---------------------------------------------------------------------------- gate


def run_gates(base: Side, news: list[Side], args) -> list[Result]:
    """Each NEW run gated against BASE with the command's options."""
    from .analysis.gate import gate

    results = []
    for new in news:
        both = base.repeats is not None and new.repeats is not None
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            verdicts = gate(base.scores, new.scores, metrics=args.metric_list, margin=args.margins,
                            level=args.level, max_mde=args.max_mde, base_repeats=base.repeats if both else None,
                            new_repeats=new.repeats if both else None, base_judge=base.judged(),
                            new_judge=new.judged())
        if verdicts.shared == 0:
            raise RagWidgetsError(f"BASE {base.source} and NEW {new.source} share no query_id: "
                                  "they are not runs of the same queries")
        for w in seen:
            print(f"ragwidgets: warning: NEW {new.source}: {w.message}", file=sys.stderr)
        results.append(Result(new, verdicts))
    return results


def exit_code(results: list[Result], aa: dict | None, *, fail_on_regression: bool, strict: bool) -> int:
    """1 when ``fail_on_regression`` or ``strict`` and a run regressed or the A/A check's false-alarm
    rate is above its nominal rate (:func:`aa_above`); else 4 when a metric cannot be told and
    ``strict``; else 0."""
    if (fail_on_regression or strict) and (any(len(r.gate.regressed) for r in results) or (aa is not None and aa_above(aa))):
        return REGRESSION
    if strict and any(len(r.gate.cannot_tell) for r in results):
        return CANNOT_TELL
    return OK


def rows(gate) -> list[dict]:
    """The gate's frame as plain rows of :data:`ROW_KEYS` (NaN as None)."""
    out = []
    for record in gate.frame.to_dict("records"):
        out.append({k: _plain(record.get(k)) for k in ROW_KEYS})
    return out


def _plain(value):
    if value is None:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def aa_report(spec: str, args) -> dict:
    """The gate's false-alarm rate on A/A pairs of the run ``spec`` under the command's options."""
    from .analysis.gate import aa_false_alarms

    side = load_side(spec, "--aa", args.history, args.metric_list)
    found = aa_false_alarms(side.repeats if side.repeats is not None else side.scores,
                            draws=args.aa_draws, seed=0, metrics=args.metric_list, margin=args.margins,
                            level=args.level, max_mde=args.max_mde)
    return {"source": spec, **{k: _plain(v) if not isinstance(v, (dict, list, str)) else v for k, v in found.items()}}


# ---------------------------------------------------------------------------- formats


def _num(x, *, signed: bool = False) -> str:
    from .engine.metrics import format_value

    return "—" if x is None else format_value(x, signed=signed)


def _interval(row: dict) -> str:
    if row["difference"] is None:
        return "—"
    bounds = "" if row["lo"] is None else f" [{_num(row['lo'], signed=True)}, {_num(row['hi'], signed=True)}]"
    return _num(row["difference"], signed=True) + bounds


def _headline(base: Side, result: Result) -> str:
    return f"{result.new.source} vs BASE {base.source}: {result.gate.said()}"


def as_table(base: Side, results: list[Result], aa: dict | None) -> str:
    """The terminal table: a headline per NEW run, then its metrics."""
    from .notes_cli import shown_text

    blocks = []
    for result in results:
        lines = [shown_text(_headline(base, result), 400)]
        table = [("metric", "verdict", "difference [lo, hi]", "MDE", "why")]
        table += [(r["metric"], r["verdict"], _interval(r), _num(r["mde"]), shown_text(str(r["why"] or ""), 100))
                  for r in rows(result.gate)]
        widths = [max(len(row[i]) for row in table) for i in range(4)]
        lines += ["  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths)) + "  " + row[4] for row in table]
        if judges_said(base, result.new):
            lines.append(shown_text(judges_said(base, result.new), 400))
        blocks.append("\n".join(line.rstrip() for line in lines))
    if aa is not None:
        blocks.append(aa_said(aa))
    return "\n\n".join(blocks)


def aa_said(aa: dict) -> str:
    """The A/A check in words: the rate, its Monte-Carlo error (none drawn: the rule of three's
    95% bound, 3 / draws) and what it means for the gate as configured."""
    from .notes_cli import shown_text

    rate, error, nominal, draws = aa["rate"], aa["se"], aa["nominal"], aa["draws"]
    alarms = round(rate * draws)
    spread = f"± {_percent(error)} (Monte-Carlo standard error)" if alarms else \
        f"(at most {_percent(min(1.0, 3 / draws))} at 95%: none in {draws})"
    said = [f"A/A check on {aa['source']}: the gate said 'worse' on {alarms} of {draws} A/A pairs "
            f"(no true difference): {_percent(rate)} {spread}, nominal {_percent(nominal)}; "
            f"'worse' or 'better': {_percent(aa['any_rate'])} ± {_percent(aa['any_se'])}, "
            f"nominal {_percent(aa['any_nominal'])}"]
    if aa.get("how"):
        said.append(str(aa["how"]))
    noise = "the judge's noise" if aa.get("mode") == "repeats" else \
        "the spread of the queries (the judge's own noise needs repeats: ragwidgets judge --repeats)"
    if aa_above(aa):
        said.append(f"Above the nominal {_percent(nominal)}: with {noise}, this gate fails builds for nothing "
                    "more often than its level says; widen --margin, judge with repeats, or gate fewer metrics.")
    else:
        upper = min(1.0, rate + 2 * error if alarms else 3 / draws)
        said.append(f"Not shown above the nominal {_percent(nominal)} by {draws} draws (the rate may be up to "
                    f"{_percent(upper)}; --aa-draws narrows it): with {noise}, this gate is not seen to say "
                    "'worse' for nothing more often than its level says.")
    return "\n".join(shown_text(s, 400) for s in said)


def _percent(x) -> str:
    from .engine.metrics import format_percent

    return format_percent(x)


def as_json(base: Side, results: list[Result], aa: dict | None, level: float, status: int) -> str:
    """The stable JSON document (see the module docstring)."""
    return json.dumps({
        "format": 1, "level": level, "exit_code": status, "base": base.said(),
        "runs": [{"new": r.new.said(), "said": r.gate.said(), "regressed": list(r.gate.regressed),
                  "cannot_tell": list(r.gate.cannot_tell), "metrics": rows(r.gate)} for r in results],
        "aa": aa,
    }, indent=2, allow_nan=False)


_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text) -> str:
    """Text XML 1.0 can hold: characters it cannot (controls, lone surrogates) as U+FFFD."""
    return _NOT_XML.sub("\ufffd", str(text))


def as_junit(base: Side, results: list[Result], aa: dict | None) -> str:
    """JUnit XML: a testsuite per NEW run, a testcase per metric (failure: worse; skipped: cannot
    tell); the A/A check a testsuite of its own (failure: above the nominal rate)."""
    suites = ET.Element("testsuites", name="ragwidgets compare")
    for result in results:
        metrics = rows(result.gate)
        suite = ET.SubElement(suites, "testsuite", name=_xml(f"{result.new.source} vs {base.source}"),
                              tests=str(len(metrics)),
                              failures=str(sum(r["verdict"] == "worse" for r in metrics)),
                              skipped=str(sum(r["verdict"] == "cannot tell" for r in metrics)), errors="0")
        for r in metrics:
            case = ET.SubElement(suite, "testcase", name=_xml(r["metric"]),
                                 classname=_xml(f"ragwidgets.compare.{result.new.source}"))
            said = _xml(f"{r['verdict']}: {_interval(r)} (MDE {_num(r['mde'])}); {r['why'] or ''}")
            if r["verdict"] == "worse":
                ET.SubElement(case, "failure", message=said, type="regression").text = said
            elif r["verdict"] == "cannot tell":
                ET.SubElement(case, "skipped", message=said)
            else:
                ET.SubElement(case, "system-out").text = said
    if aa is not None:
        suite = ET.SubElement(suites, "testsuite", name=_xml(f"A/A check on {aa['source']}"), tests="1",
                              failures=str(int(aa_above(aa))), skipped="0", errors="0")
        case = ET.SubElement(suite, "testcase", name="false alarm rate", classname="ragwidgets.compare.aa")
        said = _xml(aa_said(aa))
        if aa_above(aa):
            ET.SubElement(case, "failure", message=said, type="false alarms").text = said
        else:
            ET.SubElement(case, "system-out").text = said
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode")


def aa_above(aa: dict) -> bool:
    """Whether the A/A check's rate of "worse" is above its nominal rate by more than twice its
    Monte-Carlo standard error."""
    rate, error, nominal = aa.get("rate"), aa.get("se") or 0.0, aa.get("nominal")
    return rate is not None and nominal is not None and rate - 2 * error > nominal


_MD_INLINE = re.compile(r"([\\`*_\[\]()<>|#!~&@{}$])")  # what can start markup, HTML, a link or a column
_MD_LEADING = re.compile(r"^([-+=]|\d+(?=[.)]))")  # what starts a list or a heading at a line's start
_MD_AUTOLINK = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*)(:)(?=//)|\b(www)(\.)")  # a bare URL GitHub would link


def md(text, width: int = SHOWN) -> str:
    """Untrusted text for markdown: on one line (controls and bidi characters shown as code points,
    :func:`~ragwidgets.notes_cli.shown_text`), cut at ``width``, each character that could start
    markup backslash-escaped (CommonMark lets any ASCII punctuation be), so a ``|``, a backtick,
    ``<script>`` or ``**`` renders as the text it is, never as markup, HTML or a table's column;
    a bare URL's ``:`` (or ``www``'s ``.``) too, so that GitHub does not make it a link."""
    from .notes_cli import shown_text

    text = _MD_INLINE.sub(r"\\\1", shown_text(str(text), width))
    text = _MD_AUTOLINK.sub(lambda m: f"{m.group(1)}\\:" if m.group(1) else f"{m.group(3)}\\.", text)
    return _MD_LEADING.sub(lambda m: m.group(1)[:-1] + "\\" + m.group(1)[-1] if m.group(1)[0] in "-+=" else
                           m.group(1) + "\\", text, count=1)


MARK = {"worse": "❌ worse", "better": "✅ better", "no detectable change": "➖ no detectable change",
        "cannot tell": "❔ cannot tell"}


def as_markdown(base: Side, results: list[Result], aa: dict | None) -> str:
    """The pull-request comment: per NEW run its verdicts, then per worse metric the queries that
    fell most and the claims whose labels changed there (:func:`fallen_claims`)."""
    out = ["## ragwidgets compare", ""]
    for result in results:
        judges = [md(judges_said(base, result.new), 400), ""] if judges_said(base, result.new) else []
        out += [f"### {md(result.new.source)} vs {md(base.source)}", "", md(result.gate.said(), 400), "", *judges,
                "| metric | verdict | difference [lo, hi] | MDE | why |", "|---|---|---|---:|---|"]
        metrics = rows(result.gate)
        out += [f"| {md(r['metric'])} | {MARK.get(r['verdict'], md(r['verdict']))} | {_interval(r)} | "
                f"{_num(r['mde'])} | {md(r['why'] or '', 300)} |" for r in metrics]
        out.append("")
        worse = {r["metric"]: r["direction"] for r in metrics if r["verdict"] == "worse"}
        for metric, frame in fallen_claims(base, result.new, worse).items():
            out += _worst_queries(frame, metric)
    if aa is not None:
        out += ["### The gate's own false alarms (A/A)", "",
                *(md(line, 400) + "  " for line in aa_said(aa).splitlines()), ""]
    return "\n".join(out).rstrip() + "\n"


def _worst_queries(frame, metric: str) -> list[str]:
    """The markdown of :func:`fallen_claims`' frame for ``metric``: a row per query, with up to
    ``CLAIMS_SHOWN`` of the claims whose labels changed."""
    if not len(frame):
        return []
    out = [f"<details><summary>{md(metric)}: the queries that fell most</summary>", "",
           "| query | base | new | difference | what changed |", "|---|---:|---:|---:|---|"]
    for qid, group in frame.groupby("query_id", sort=False):
        first = group.iloc[0]
        said = [_claim_change(c) for c in group.head(CLAIMS_SHOWN).itertuples(index=False)]
        more = f"; … and {len(group) - CLAIMS_SHOWN} more" if len(group) > CLAIMS_SHOWN else ""
        out.append(f"| {md(qid, 60)} | {_num(first['base_value'])} | {_num(first['new_value'])} | "
                   f"{_num(first['difference'], signed=True)} | {'; '.join(said)}{more} |")
    return out + ["", "</details>", ""]


def _claim_change(row) -> str:
    text = row.claim_text
    change = md(row.change or "", 120)
    return f"{md(text, 80)}: {change}" if isinstance(text, str) and text else change


def fallen_claims(base: Side, new: Side, worse: dict[str, str], top: int = WORST_QUERIES) -> dict:
    """Per metric of ``worse`` (metric -> its direction, "higher" or "lower" is better): the ``top``
    shared queries defining it in both runs whose value fell most from ``base`` to ``new``, and the
    claims whose labels changed within each (:func:`~ragwidgets.analysis.changes.moved_claims`' frame)."""
    import numpy as np
    import pandas as pd

    from .analysis.changes import moved_claims
    from .analysis.table import DEFINED_CODE, run_table

    if not worse:
        return {}
    a, b = run_table(base.scores, list(worse)), run_table(new.scores, list(worse))
    shared = a.frame.index.intersection(b.frame.index, sort=False)
    values = [t.frame.loc[shared, list(worse)] for t in (a, b)]
    defined = [(t.status.loc[shared, list(worse)] == DEFINED_CODE) for t in (a, b)]
    out = {}
    for metric, direction in worse.items():
        both = (defined[0][metric] & defined[1][metric]).to_numpy()
        va, vb = (v[metric].to_numpy()[both] for v in values)
        fallen = (vb - va) * (1.0 if direction == "higher" else -1.0)
        keep = np.flatnonzero(fallen < 0)
        keep = keep[np.argsort(fallen[keep], kind="stable")]
        order = pd.DataFrame({"base": va[keep], "new": vb[keep], "difference": (vb - va)[keep]},
                             index=shared[both][keep])
        out[metric] = moved_claims(order, base.scores, new.scores, top=top)
    return out


# ---------------------------------------------------------------------------- command


def cmd_compare(args) -> int:
    if not (0 < args.level < 1):
        raise RagWidgetsError(f"--level: a confidence level between 0 and 1, not {args.level}")
    if args.max_mde is not None and not args.max_mde > 0:
        raise RagWidgetsError(f"--max-mde: a fall of more than 0 in the metrics' units, not {args.max_mde}")
    if args.aa is None and not args.runs:
        raise RagWidgetsError("give BASE and at least one NEW run (or --aa RUN)")
    if len(args.runs) == 1:
        raise RagWidgetsError("give a NEW run after BASE")
    if args.output and Path(args.output).is_dir():
        raise RagWidgetsError(f"--output: {args.output} is a folder; give a file name")
    args.metric_list = None if args.metrics is None else list(_metric_names(args.metrics, "--metrics"))
    args.margins = margins(args.margin)
    if isinstance(args.margins, dict) and args.metric_list is not None:
        stray = [m for m in args.margins if m not in args.metric_list]
        if stray:
            raise RagWidgetsError(f"--margin names {', '.join(stray)}, which --metrics does not gate")
    scored = args.metric_list
    results, base = [], None
    if args.runs:
        base = with_judge(load_side(args.runs[0], "BASE", args.history, scored), args.base_judge, "--base-judge")
        news = [with_judge(load_side(spec, "NEW", args.history, scored), args.new_judge, "--new-judge")
                for spec in args.runs[1:]]
        results = run_gates(base, news, args)
    aa = aa_report(args.aa, args) if args.aa else None
    status = exit_code(results, aa, fail_on_regression=args.fail_on_regression, strict=args.strict)
    if args.format == "json":
        text = as_json(base, results, aa, args.level, status) if base else json.dumps(
            {"format": 1, "level": args.level, "exit_code": status, "base": None, "runs": [], "aa": aa}, indent=2)
    elif args.format == "junit":
        text = as_junit(base, results, aa)
    elif args.format == "markdown":
        text = as_markdown(base, results, aa)
    else:
        text = as_table(base, results, aa)
    if args.output:
        with atomic_write(args.output, "w", encoding="utf-8") as out:
            out.write(text if text.endswith("\n") else text + "\n")
        text = as_table(base, results, aa) + f"\n\nwrote {args.format} to {args.output}"
    print(text.rstrip("\n"))
    return status


def add_parser(sub) -> None:
    """Register ``compare`` on the CLI's sub-parsers."""
    p = sub.add_parser("compare", help="gate NEW run(s) against BASE: worse / better / no detectable change / "
                                       "cannot tell per metric (exit status for CI)",
                       description=DESCRIPTION,
                       epilog=EXIT_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="*", metavar="RUN",
                   help="BASE then NEW [NEW ...]: run files (JSON, JSONL, Parquet, CSV; .gz) or history:latest, "
                        "history:accepted, history:NAME (with --history)")
    p.add_argument("--metrics", help="comma-separated metrics to gate (default: every metric defined in both)")
    p.add_argument("--margin", help="a drop smaller than this is not a regression (non-inferiority): one number "
                                    "for every metric, or metric=number,... (default 0)")
    p.add_argument("--max-mde", type=float, metavar="X",
                   help="with margin 0, the tolerance of 'no detectable change': the interval must rule out a fall "
                        "of X and the minimum detectable effect be at most X (without it or --margin, a metric that "
                        "did not change significantly cannot be told)")
    p.add_argument("--level", type=float, default=0.95, help="confidence level of the intervals (default 0.95)")
    p.add_argument("--fail-on-regression", action="store_true",
                   help="exit status 1 when a metric of a NEW run is worse (or the --aa false-alarm rate "
                        "is above its nominal rate); --strict implies it")
    p.add_argument("--strict", action="store_true", help="exit status 1 on a regression, else 4 when a metric cannot be "
                                                          "told (too few shared queries, judges differ, no tolerance, "
                                                          "an interval that still holds a fall of it)")
    p.add_argument("--format", choices=FORMATS, default="table",
                   help="table (default); json (stable keys); junit (XML for CI); markdown (a PR comment "
                        "with the worst queries and the claims that flipped)")
    p.add_argument("--output", metavar="FILE", help="write the --format output to FILE (the table still on stdout)")
    p.add_argument("--base-judge", metavar="NAME", help="who judged BASE (a file does not say; a history entry "
                                                           "does): runs judged differently cannot be told")
    p.add_argument("--new-judge", metavar="NAME", help="who judged the NEW run(s), as --base-judge")
    p.add_argument("--history", "--db", dest="history", metavar="PATH",
                   help="the run history (ragwidgets history --db) that history:... names (default: "
                        "ragwidgets-history.sqlite here)")
    p.add_argument("--aa", metavar="RUN", help="also check the gate itself: its false-alarm rate on A/A pairs "
                                               "of RUN (its judge's repeats when it carries them)")
    p.add_argument("--aa-draws", type=int, default=AA_DRAWS, help=f"A/A pairs drawn (default {AA_DRAWS})")
    p.set_defaults(func=cmd_compare)
