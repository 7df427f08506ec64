"""The failure-modes panel (``js/src/dataset/modes.js``): the analyst's axial-coding workspace
over the run model's notes (``model.notes``, ``model.change_notes``), shown when a run has notes or a
notes file. Per mode (a tag) and run: the samples tagged of the samples read, the rate among them
with its interval and, when the samples read follow a design (the explorer's reading queue), the
estimated share of the run with its interval (:func:`~ragwidgets.analysis.failure_modes.mode_table`).
A mode keeps its samples as the explorer's ``samples`` (``modes_pick``); rename, merge and split
append the changed notes' new versions (:meth:`~ragwidgets.notes.Notes.retagged`: nothing is
rewritten), computed from the notes file under its lock where the run has one; grouping proposals of the untagged notes (by text, or by the judge) are kept here
until the analyst accepts one (its notes tagged) or rejects it (dropped), never applied unasked.
A mode's check is the checks panel's (``checks.py``).

Everything from the front end is checked and bounded: tags by :func:`~ragwidgets.notes.clean_tag`
(an error, nothing written), modes and runs against those there, at most MAX_KEYS note keys, at
most MAX_PROPOSE notes grouped."""

from __future__ import annotations

import math
import numbers
import os

import numpy as np
import pandas as pd

from ...analysis.failure_modes import COLUMNS, mode_table
from ...analysis.groupings import propose_groupings, propose_with_judge
from ...analysis.runs import require
from ...notes import Notes, clean_tag
from .common import NOTHING, ROWS, VIEW, Context, Panel, whole

MAX_KEYS = 5_000  # note keys in one split or accepted proposal
MAX_LISTED = 200  # a mode's notes listed for a split
MAX_PROPOSE = 1_000  # untagged notes one proposal request groups (the first in the notes' order)


class ModesPanel(Panel):
    """The modes' part of the view (``modes``; None without notes) and the grouping proposals kept
    until accepted or rejected (``proposals``, over ``proposal_run``'s notes)."""

    key = "modes"
    requests = {"modes_table": VIEW, "modes_pick": NOTHING, "modes_notes": NOTHING, "modes_rename": ROWS,
                "modes_merge": ROWS, "modes_split": ROWS, "modes_propose": VIEW, "modes_accept": ROWS,
                "modes_reject": VIEW}

    def __init__(self, model):
        super().__init__(model)
        self.proposals: list = []
        self.proposal_run = ""
        self.proposed = ""  # what the last proposal request grouped, in words
        self._table: tuple = ((), None)  # (the objects it was found from, the mode table)

    # -- the view ---------------------------------------------------------------------------------
    def part(self, ctx: Context, view: dict) -> dict:
        if not shows(self.model):
            return {"modes": None}
        runs = self._runs(ctx)
        held, table = self._table
        stale = table is None or not _same(held, self._inputs(ctx))
        table = table[table["run"].isin(runs)] if table is not None else pd.DataFrame(columns=list(COLUMNS))
        modes = {}
        for r in table.itertuples(index=False):
            m = modes.setdefault(r.mode, {"mode": r.mode, "tagged": 0, "runs": {}})
            m["tagged"] += int(r.tagged)
            m["runs"][r.run] = {k: _number(getattr(r, k)) for k in (
                "tagged", "read", "rate", "lo", "hi", "population_rate", "population_lo", "population_hi",
                "run_rate", "run_lo", "run_hi")}
        notes = self.model.notes
        return {"modes": {
            "runs": runs, "several": len(self.model.runs) > 1, "stale": stale,
            "modes": sorted(modes.values(), key=lambda m: (-m["tagged"], m["mode"])),
            "read": {run: len(notes[run].query_ids) for run in runs},
            "untagged": sum(len(notes[run].untagged()) for run in runs),
            "basis": dict(zip(table["run"], table["basis"])),
            "files": [os.path.basename(self.model.note_files[run]) for run in runs if run in self.model.note_files],
            "judge": ctx.judge is not None,
            "proposals": [{"name": p.name, "n": len(p.keys), "why": p.why, "source": p.source, "terms": list(p.terms),
                           "notes": [self._said(self.proposal_run, k) for k in p.keys[:20]]} for p in self.proposals],
            "proposal_run": self.proposal_run, "proposed": self.proposed}}

    def _runs(self, ctx: Context) -> list[str]:
        return runs_in_scope(self.model, ctx)

    def _inputs(self, ctx: Context) -> tuple:
        """What the modes' table is found from: the runs in scope, their notes in force, their reading queues."""
        runs = self._runs(ctx)
        return (tuple(runs), *(self.model.notes[run] for run in runs), *((ctx.reading or {}).get(run) for run in runs))

    def table(self, ctx: Context):
        """:func:`mode_table` over the runs in scope, their notes in force and the reading queue
        as the design of its run; found again only when one of those is another object."""
        inputs = self._inputs(ctx)
        held, frame = self._table
        if frame is None or not _same(held, inputs):
            runs = list(inputs[0])
            notes = {run: self.model.notes[run] for run in runs}
            frame = (mode_table({run: self.model.scores[run] for run in runs}, notes,
                                design={run: (ctx.reading or {}).get(run) for run in runs})
                     if any(len(n.tags) for n in notes.values()) else pd.DataFrame(columns=list(COLUMNS)))
            self._table = (inputs, frame)
        return frame

    def on_modes_table(self, ctx: Context, message: dict) -> None:
        """Find the modes' table again (the front end asks when the view says it is ``stale``)."""
        require(self.model, "notes")
        self.table(ctx)

    def _said(self, run: str, key) -> dict:
        """A note as the panel lists it: its run, sample, claim, text and tags."""
        n = self.model.notes[run].latest.get(tuple(key))
        return {"run": run, "query_id": key[0], "claim": key[1], "note": n.note if n else "",
                "tags": list(n.tags) if n else []}

    # -- the requests -----------------------------------------------------------------------------
    def _scope(self, ctx: Context, message: dict) -> list[str]:
        return scope(self.model, ctx, message)

    def _mode(self, message: dict, runs: list[str]) -> str:
        return mode_of(self.model, message, runs)

    def _write(self, run: str, change) -> int:
        """Write the notes ``change`` (Notes -> their new versions) gives of ``run``'s notes, from
        its file under the lock when it has one (:meth:`~ragwidgets.analysis.runs.live_notes.LiveNotes.change_notes`); how many."""
        return len(self.model.change_notes(run, change))

    def _edited(self, ctx: Context, written: int) -> dict:
        """The reply to an edit, the modes' table found again at once (the analyst waits on their own edit)."""
        self.table(ctx)
        return {"written": written}

    def on_modes_pick(self, ctx: Context, message: dict) -> dict:
        """The samples carrying a mode (in ``run``, else the runs in scope): ``{"label", "query_ids", "run"}``."""
        require(self.model, "notes")
        runs = self._scope(ctx, message)
        mode = self._mode(message, runs)
        ids = list(dict.fromkeys(q for run in runs for q in self.model.notes[run].with_tag(mode)))
        where = f" in {runs[0]}" if len(runs) == 1 and len(self.model.runs) > 1 else ""
        return {"label": f"mode: {mode}{where} ({len(ids)} sample{'s' if len(ids) != 1 else ''})",
                "query_ids": ids, "run": message.get("run") or ""}

    def on_modes_notes(self, ctx: Context, message: dict) -> dict:
        """A mode's notes, for a split: ``{"notes": [{run, query_id, claim, note, tags}], "more"}``
        (at most MAX_LISTED; ``more`` those left out)."""
        require(self.model, "notes")
        runs = self._scope(ctx, message)
        mode = self._mode(message, runs)
        keys = [(run, n.key) for run in runs for n in self.model.notes[run] if mode in n.tags]
        return {"notes": [self._said(run, k) for run, k in keys[:MAX_LISTED]], "more": max(0, len(keys) - MAX_LISTED)}

    def on_modes_rename(self, ctx: Context, message: dict) -> dict:
        """Rename a mode (``mode`` → ``new``; a merge when ``new`` exists) in every run in scope carrying it."""
        require(self.model, "notes")
        runs = self._scope(ctx, message)
        mode, new = self._mode(message, runs), clean_tag(message.get("new"), "new")
        return self._edited(ctx, sum(self._write(run, lambda notes: notes.retagged({mode: new})) for run in runs
                                     if mode in self.model.notes[run].tags and mode != new))

    def on_modes_merge(self, ctx: Context, message: dict) -> dict:
        """Merge ``modes`` (two or more) into ``new`` in every run in scope."""
        require(self.model, "notes")
        runs = self._scope(ctx, message)
        modes = message.get("modes")
        if not isinstance(modes, list) or not 2 <= len(modes) <= 100:
            raise ValueError(f"modes must be a list of 2 to 100 modes to merge, not {modes!r:.80}")
        modes = [self._mode({"mode": m}, runs) for m in modes]
        new = clean_tag(message.get("new"), "new")
        mapping = {m: new for m in modes if m != new}
        return self._edited(ctx, sum(self._write(run, lambda notes: notes.retagged(mapping)) for run in runs))

    def on_modes_split(self, ctx: Context, message: dict) -> dict:
        """Split a mode: on the notes ``keys`` ([run, query_id, claim], each a note carrying it) it becomes ``new``."""
        require(self.model, "notes")
        runs = self._scope(ctx, message)
        mode, new = self._mode(message, runs), clean_tag(message.get("new"), "new")
        chosen: dict[str, list] = {}
        for run, key in _keys(message.get("keys"), runs):
            n = self.model.notes[run].latest.get(key)
            if n is None or mode not in n.tags:
                raise ValueError(f"keys: the note on query_id {key[0]!r:.80}"
                                 f"{'' if key[1] is None else f' claim {key[1]}'} in run {run!r:.80} "
                                 f"does not carry {mode!r:.80}")
            chosen.setdefault(run, []).append(key)
        if not chosen:
            raise ValueError("keys: choose at least one note of the mode to split off")
        return self._edited(ctx, sum(self._write(run, lambda notes, keys=keys: notes.retagged({mode: new}, keys))
                                     for run, keys in chosen.items() if mode != new))

    def on_modes_propose(self, ctx: Context, message: dict) -> None:
        """Propose groupings of the untagged notes of one run (``run``, else the run shown, else
        the first): by text, or by the explorer's judge (``judge`` true). At most MAX_PROPOSE notes."""
        require(self.model, "notes")
        run = self._scope(ctx, message)[0]
        untagged = self.model.notes[run].untagged()
        if not untagged:
            raise ValueError(f"no untagged note with text in run {run!r:.80} to group")
        notes = Notes(untagged[:MAX_PROPOSE])
        if message.get("judge"):
            if ctx.judge is None:
                raise ValueError("no judge: pass judge= to the explorer to ask one for groupings")
            proposals, how = propose_with_judge(notes, ctx.judge), "the judge"
        else:
            proposals, how = propose_groupings(notes), "text similarity"
        left = len(untagged) - len(notes)
        self.proposals, self.proposal_run = list(proposals), run
        self.proposed = (f"{len(proposals)} proposal{'s' if len(proposals) != 1 else ''} by {how} over "
                         f"{len(notes)} untagged note{'s' if len(notes) != 1 else ''}"
                         + (f" of run {run}" if len(self.model.runs) > 1 else "")
                         + (f" (the first {len(notes):,}; {left:,} left out)" if left else ""))

    def _proposal(self, message: dict) -> int:
        """The index of the proposal a request names."""
        if not self.proposals:
            raise ValueError("no proposal: propose groupings first")
        return whole(message.get("index"), "index", 0, len(self.proposals) - 1)

    def on_modes_accept(self, ctx: Context, message: dict) -> dict:
        """Accept proposal ``index`` under ``name`` (its name as edited): its notes are tagged."""
        require(self.model, "notes")
        i = self._proposal(message)
        name = clean_tag(message.get("name", self.proposals[i].name), "name")
        run = self.proposal_run
        keys = self.proposals[i].keys
        written = self._write(run, lambda notes: notes.tagged(keys, name))
        del self.proposals[i]
        return self._edited(ctx, written)

    def on_modes_reject(self, ctx: Context, message: dict) -> None:
        """Drop proposal ``index``: nothing is written."""
        del self.proposals[self._proposal(message)]


def _same(held: tuple, inputs: tuple) -> bool:
    """Whether a table found from ``held`` is the one ``inputs`` give (the same runs, the same objects)."""
    return len(held) == len(inputs) and held[0] == inputs[0] and all(a is b for a, b in zip(held[1:], inputs[1:]))


def shows(model) -> bool:
    """Whether the modes' panels show: a run in memory with notes or a notes file."""
    return "notes" in model.capabilities and (any(len(n) for n in model.notes.values()) or bool(model.note_files))


def runs_in_scope(model, ctx: Context) -> list[str]:
    """The runs in scope: the run shown, else every run."""
    return [ctx.controls["run"]] if ctx.controls.get("run") else list(model.runs)


def scope(model, ctx: Context, message: dict) -> list[str]:
    """The runs a request acts on: its ``run`` (one of the model's), else the runs in scope."""
    run = message.get("run") or ""
    if run and run not in model.runs:
        raise ValueError(f"run must be one of {', '.join(map(repr, model.runs))}, not {run!r:.80}")
    return [run] if run else runs_in_scope(model, ctx)


def mode_of(model, message: dict, runs: list[str]) -> str:
    """The ``mode`` a request names: a tag carried in one of ``runs`` (ValueError naming those there otherwise)."""
    mode = message.get("mode")
    known = sorted({t for run in runs for t in model.notes[run].tags})
    if not isinstance(mode, str) or mode not in known:
        raise ValueError(f"mode must be one of the modes ({', '.join(map(repr, known))[:300] or 'none'}), "
                         f"not {mode!r:.80}")
    return mode


def _keys(keys, runs: list[str]):
    """The note keys a request names, each ``[run, query_id, claim]`` (claim a whole number or
    null), as (run, (query_id, claim)); at most MAX_KEYS."""
    if not isinstance(keys, list) or len(keys) > MAX_KEYS:
        raise ValueError(f"keys must be a list of at most {MAX_KEYS:,} [run, query_id, claim], not {keys!r:.80}")
    out = []
    for k in keys:
        if not (isinstance(k, list) and len(k) == 3 and k[0] in runs and isinstance(k[1], str)
                and (k[2] is None or (isinstance(k[2], numbers.Integral) and not isinstance(k[2], bool)))):
            raise ValueError(f"keys: each is [run, query_id, claim] of a run in scope, not {k!r:.80}")
        out.append((k[0], (k[1], None if k[2] is None else int(k[2]))))
    return out


def _number(value):
    """A figure for the view: a count as an int, a fraction as is (the front end rounds: pct), None for NaN."""
    if isinstance(value, (numbers.Integral, np.integer)):
        return int(value)
    return None if math.isnan(value) else float(value)
