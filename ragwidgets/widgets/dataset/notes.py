"""Failure notes (``js/src/dataset/notes.js``): the reading queue's line over the table
("Reading 12 of 40 failing (faithfulness < 1, random) · 8 read · 5 tagged · Saved to notes.jsonl")
and, for the drill-down's note boxes, the selected sample's notes in force and the run's tags
(offered as suggestions). The queue is :func:`ragwidgets.analysis.reading_queue` over the run
shown; a note goes to the run model (``model.add_notes``: its notes file first, then the mode
columns). Moving on after a note is the core's (``DatasetExplorer.note`` / the "note" request)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ...analysis.reading_queue import ReadingQueue, reading_queue
from ...analysis.runs import not_available, require
from ...errors import InputError
from ...notes import Note, Notes
from ...reviews import now
from .common import Context, Panel

NO_FILE = "not saved: pass notes='notes.jsonl'"
MAX_SUGGESTED = 200  # the run's tags offered in the note box, most used first
NO_READING = "no reading queue: start one with ex.start_reading(n, where=...)"


def note_words(notes: Mapping) -> dict:
    """One sample's notes in force as the note boxes show them: ``{"sample": {note, tags} | None,
    "claims": {claim index as text: {note, tags}}}``."""
    shown = lambda n: {"note": n.note, "tags": list(n.tags), "author": n.author, "time": n.time}  # noqa: E731
    return {"sample": shown(notes[None]) if None in notes else None,
            "claims": {str(c): shown(n) for c, n in notes.items() if c is not None}}


def new_note(sample, text="", tags=(), claim=None, author: str = "") -> Note:
    """A note on ``sample`` (``claim``: on its response claim of that 0-based index, its text kept
    beside), stamped now; ``tags`` a list or comma-separated text. An InputError names a bad field."""
    if isinstance(tags, str):
        tags = [t for t in (p.strip() for p in tags.split(",")) if t]
    if not isinstance(tags, (list, tuple)):
        raise InputError(f"must be a list of tags or a comma-separated text, not {tags!r:.80}", field="tags")
    claim_text = None
    if claim is not None:
        n = len(sample.response_claims)
        if isinstance(claim, bool) or not isinstance(claim, int) or not 0 <= claim < n:
            raise InputError(f"must be a response claim's index, 0 to {n - 1}, not {claim!r:.80}",
                             sample=sample.query_id, field="claim")
        claim_text = sample.response_claims[claim].text
    return Note(sample.query_id, note=text, tags=tuple(tags), claim=claim, claim_text=claim_text, author=author,
                time=now())


def notes_view(notes: Notes, query_id: str | None, file: str | None, run: str = "") -> dict:
    """What the note box shows for sample ``query_id`` of ``notes`` (None: none drilled): its notes
    in force, the run's tags (most used first) and where notes are saved."""
    tags = notes.tags
    return {"available": True, "run": run, "query_id": query_id,
            "file": (f"Saved to {file}" if file else NO_FILE) if query_id else "",
            "shown": note_words(notes.for_sample(query_id)) if query_id else None,
            "tags": [t for t, _ in sorted(tags.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_SUGGESTED]],
            "reading": None}


class NotesPanel(Panel):
    """The notes' part of the view (``notes``: None on a run that cannot take notes): ``queue`` the
    ReadingQueue, ``run`` the run it is over, ``at`` the item shown, ``rows`` each item's row of
    the model's frame."""

    key = "notes"
    requests: dict[str, str] = {}  # "note" and "reading" move the selection: the core answers them

    def __init__(self, model):
        super().__init__(model)
        self.queue: ReadingQueue | None = None
        self.run = ""
        self.at = 0
        self.rows = np.zeros(0, dtype=np.int64)

    def start(self, ctx: Context, n: int, where: str, strategy: str, by, seed: int) -> ReadingQueue:
        """A new reading queue over the run shown (all runs shown: the first), skipping the samples
        read; returns it."""
        require(self.model, "notes", " (take notes on the run in memory)")
        run = ctx.controls.get("run") or self.model.runs[0]
        queue = reading_queue(self.model.scores[run], n, where=where, strategy=strategy, by=by, seed=seed,
                              notes=self.model.notes[run])
        in_run = np.flatnonzero(self.model.frame["run"].to_numpy() == run)
        self.queue, self.run, self.at = queue, run, 0
        self.rows = in_run[queue.frame["position"].to_numpy(dtype=np.int64)]
        return queue

    def step(self, step: int) -> int:
        """Move ``step`` items on (negative: back), kept within the queue; the item's frame row."""
        if self.queue is None or not len(self.queue):
            raise ValueError(NO_READING if self.queue is None else "the reading queue is empty: nothing to open")
        if isinstance(step, bool) or not isinstance(step, (int, np.integer)):
            raise ValueError(f"step must be a whole number, not {step!r:.80}")
        self.at = min(max(self.at + int(step), 0), len(self.queue) - 1)
        return int(self.rows[self.at])

    def progress(self) -> tuple[int, int, int] | None:
        """(read, tagged, total) of the queue; None without one."""
        if self.queue is None:
            return None
        notes = self.model.notes[self.run]
        mine = [notes.for_sample(q) for q in self.queue.query_ids]
        return (sum(bool(m) for m in mine), sum(any(n.tags for n in m.values()) for m in mine), len(self.queue))

    def file_words(self, run: str) -> str:
        """Where ``run``'s notes are saved, in words."""
        file = self.model.note_files.get(run)
        return f"Saved to {file}" if file else NO_FILE

    def progress_words(self) -> str | None:
        """"12 of 40 read · 5 tagged · Saved to notes.jsonl"; None without a queue."""
        p = self.progress()
        return None if p is None else f"{p[0]} of {p[2]} read · {p[1]} tagged · {self.file_words(self.run)}"

    def note(self, ctx: Context, query_id, text="", tags=(), claim=None, run=None, author=None) -> Note:
        """Write one note on ``query_id`` (a claim's: ``claim``, its 0-based index) of ``run`` (None:
        the drilled sample's run, else the run shown, else the first); an InputError naming the
        field for bad input (nothing written)."""
        require(self.model, "notes", " (take notes on the run in memory)")
        run = run if run is not None else (self._drilled_run(ctx) or ctx.controls.get("run") or self.model.runs[0])
        if run not in self.model.runs:
            raise InputError(f"no run {run!r:.80}; runs: {', '.join(map(repr, self.model.runs))}", field="run")
        positions = self.model.scores[run]._positions
        if not isinstance(query_id, str) or query_id not in positions:
            raise InputError(f"no sample {query_id!r:.80} in run {run!r:.80}", field="query_id")
        sample = self.model.scores[run].batch.samples[positions[query_id]]
        made = new_note(sample, text, tags, claim, ctx.reviewer if author is None else author)
        return self.model.add_notes(run, [made])[0]

    def _drilled_run(self, ctx: Context) -> str:
        if 0 <= ctx.selected < len(self.model.frame):
            return str(self.model.frame["run"].iat[ctx.selected])
        return ""

    def part(self, ctx: Context, view: dict) -> dict:
        if "notes" not in self.model.capabilities:
            said = not_available(self.model, "notes", " (take notes on the run in memory)")
            return {"notes": {"available": False, "said": said[0].upper() + said[1:]}}
        run = self._drilled_run(ctx)
        qid = str(self.model.frame["query_id"].iat[ctx.selected]) if run else None
        out = notes_view(self.model.notes[run] if run else Notes(), qid, self.model.note_files.get(run), run)
        if self.queue is not None:
            read, tagged, total = self.progress()
            q = self.queue
            where = f"where {q.where}" if q.where.strip() else "every sample"
            out["reading"] = {
                "position": self.at, "total": total, "read": read, "tagged": tagged, "strategy": q.strategy,
                "where": q.where, "run": self.run if len(self.model.runs) > 1 else None,
                "query_id": q.query_ids[self.at] if total else None,
                "line": (f"Reading {self.at + 1} of {total} failing ({where}, {q.strategy}) · {read} read · "
                         f"{tagged} tagged" if total else "nothing left to read: every failing sample has a note"),
                "file": self.file_words(self.run)}
        return {"notes": out}


NOTE_FIELDS = ("query_id", "run", "claim", "note", "tags", "advance")


def note_message(message: dict) -> dict:
    """The front end's "note" request's fields, checked: an InputError naming the field."""
    unknown = [k for k in message if k not in (*NOTE_FIELDS, "type", "request")]
    if unknown:
        raise InputError(f"unknown field; a note request has {', '.join(NOTE_FIELDS)}", field=str(unknown[0])[:80])
    text = message.get("note", "")
    if not isinstance(text, str):
        raise InputError(f"must be a string, not {text!r:.80}", field="note")
    tags = message.get("tags", [])
    if not isinstance(tags, list) or len(tags) > 50:
        raise InputError(f"must be a list of at most 50 tags, not {tags!r:.80}", field="tags")
    run = message.get("run")
    if run is not None and not isinstance(run, str):
        raise InputError(f"must be a run's name, not {run!r:.80}", field="run")
    advance = message.get("advance", 0)
    if isinstance(advance, bool) or advance not in (-1, 0, 1):
        raise InputError(f"must be -1, 0 or 1, not {advance!r:.80}", field="advance")
    return {"query_id": message.get("query_id"), "text": text, "tags": tags, "claim": message.get("claim"),
            "run": run, "advance": advance}
