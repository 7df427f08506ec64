"""Failure notes on a run held in memory (:class:`LiveNotes`, a part of
:class:`~.memory.InMemoryRun`): each run's notes in force, their file, and one column of ``frame``
per failure mode (a tag), ``mode: <tag>``: 1 the sample carries the tag (on its note or a claim's),
0 it was read and does not, NaN it was not read (as ``analysis.failure_modes.mode_masks``). A note
added changes only its sample's rows of those columns."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

import numpy as np

from ...errors import InputError
from ...notes import Note, NoteLog, Notes, as_notes
from ..failure_modes import MODE_PREFIX


def mode_column(tag: str) -> str:
    """The ``frame`` column of failure mode ``tag``."""
    return f"{MODE_PREFIX}{tag}"


def sample_modes(notes: Notes, query_id: str) -> tuple[bool, tuple[str, ...]]:
    """Whether sample ``query_id`` was read (any note in force) and its tags (its own note's, then
    its claims', duplicates dropped)."""
    mine = notes.for_sample(query_id)
    order = sorted(mine, key=lambda c: -1 if c is None else c)
    return bool(mine), tuple(dict.fromkeys(t for c in order for t in mine[c].tags))


def notes_per_run(notes, runs: list[str]) -> dict:
    """``notes`` (one run's, or ``{run: notes}``) as run -> notes (a path stays a path); a
    ValueError for a run the source lacks, several runs given one value, or one file for two runs."""
    if notes is None:
        return {}
    if isinstance(notes, Mapping):
        unknown = [str(r) for r in notes if str(r) not in runs]
        if unknown:
            raise ValueError(f"notes for run(s) {', '.join(map(repr, unknown))}, which this source lacks; "
                             f"its runs: {', '.join(map(repr, runs))}")
        out = {str(r): v for r, v in notes.items() if v is not None}
        files: dict[str, str] = {}
        for run, value in out.items():
            if isinstance(value, (str, os.PathLike)):
                key = os.path.realpath(value)
                if key in files:
                    raise ValueError(f"runs {files[key]!r} and {run!r} are given the same notes file "
                                     f"{os.fspath(value)!r}: a note names a sample of one run; "
                                     "give each run its own file")
                files[key] = run
        return out
    if len(runs) > 1:
        raise ValueError("several runs: give notes per run, {run_name: notes} (a note names a sample of one run)")
    return {runs[0]: notes}


class LiveNotes:
    """The notes of an :class:`~.memory.InMemoryRun`: per run the notes in force (``_notes``),
    their file (``_note_logs``, where given as a path) and the mode columns' values
    (``_modes``: column -> one float per ``frame`` row)."""

    noted_rows = np.zeros(0, dtype=np.int64)  # the frame positions of the samples the last add_notes() noted

    def _hold_notes(self, notes) -> None:
        """Each run's notes (``notes``: one run's or ``{run: ...}``; a path: a NoteLog, its file made
        on the first note; none given: the notes its Scores carry) and the mode columns."""
        given = notes_per_run(notes, self.runs)
        self._note_logs: dict[str, NoteLog] = {}
        self._notes: dict[str, Notes] = {}
        for run in self.runs:
            value = given.get(run)
            if isinstance(value, (str, os.PathLike)):
                self._note_logs[run] = NoteLog(value)
                self._notes[run] = self._note_logs[run].notes
            else:
                self._notes[run] = as_notes(value) if value is not None else (self._scores[run].notes or Notes())
        self._modes: dict[str, np.ndarray] = {}
        for run in self.runs:
            self._set_modes(run, self._notes[run].query_ids)

    @property
    def notes(self) -> dict[str, Notes]:
        """Each run's notes in force (empty Notes for a run with none)."""
        return dict(self._notes)

    @property
    def note_files(self) -> dict[str, str]:
        """Each run's notes file (the path given), for the runs whose notes were given as one."""
        return {run: log.path for run, log in self._note_logs.items()}

    @property
    def modes(self) -> list[str]:
        """The mode columns of ``frame`` (``mode: <tag>``), in the order their tags were first seen."""
        return list(self._modes)

    def add_notes(self, run: str, notes: Note | Mapping | Iterable) -> list[Note]:
        """Add notes (a Note, its JSON object, or several) to ``run``: written to the run's notes
        file first when it has one (durable before this returns), then in force, and the mode
        columns of their samples found again. Returns the Notes added."""
        if run not in self.runs:
            raise InputError(f"no run {run!r:.80}; runs: {', '.join(map(repr, self.runs))}", field="run")
        items = [notes] if isinstance(notes, (Note, Mapping)) else list(notes)
        items = [n if isinstance(n, Note) else Note.from_json(n, "note") for n in items]
        if not items:
            return []
        if run in self._note_logs:
            self._note_logs[run].extend(items)
            self._notes[run] = self._note_logs[run].notes
        else:
            self._notes[run] = self._notes[run] + Notes(items)
        columns = len(self._modes)
        self.noted_rows = self._set_modes(run, list(dict.fromkeys(n.query_id for n in items)))
        if len(self._modes) != columns:
            self.version += 1  # a new mode column: the rows the front end holds lack it
        return items

    def _set_modes(self, run: str, query_ids: list[str]) -> np.ndarray:
        """The mode columns' values at run ``run``'s samples ``query_ids`` (a new tag's column made,
        0 at every run's samples read); only the columns that changed are written to ``frame``.
        Returns those samples' ``frame`` positions."""
        positions = self._judge[run]._positions
        notes, start = self._notes[run], self._run_start[run]
        found = [(start + positions[q], *sample_modes(notes, q)) for q in query_ids if q in positions]
        if not found:
            return np.zeros(0, dtype=np.int64)
        changed: dict[str, np.ndarray] = {}
        read = None  # every run's samples read (frame positions), found once for the new columns
        for tag in dict.fromkeys(t for _, _, tags in found for t in tags):
            column = mode_column(tag)
            if column not in self._modes:
                if read is None:
                    read = np.array([self._run_start[other] + p for other in self.runs
                                     for q in self._notes[other].query_ids
                                     if (p := self._judge[other]._positions.get(q)) is not None], dtype=np.int64)
                values = np.full(self.total, np.nan)
                values[read] = 0.0
                self._modes[column] = changed[column] = values
        rows = np.array([r for r, _, _ in found], dtype=np.int64)
        base = np.where([was_read for _, was_read, _ in found], 0.0, np.nan)  # read: 0, else NaN
        carriers: dict[str, list[int]] = {}  # tag -> the places in found of the samples carrying it
        for i, (_, _, tags) in enumerate(found):
            for t in tags:
                carriers.setdefault(t, []).append(i)
        for column, values in self._modes.items():
            new = base.copy()
            new[carriers.get(column[len(MODE_PREFIX):], [])] = 1.0
            if not np.array_equal(values[rows], new, equal_nan=True):
                values[rows] = new
                changed[column] = values
        if changed:
            self._rows.set_columns(changed)
            if self.query.expression and MODE_PREFIX in self.query.expression or self.query.sort_by in changed:
                order, version = self._order, self.version
                self._mask = None
                self.update(self.query)
                if np.array_equal(order, self._order):
                    self.version = version
        return rows
