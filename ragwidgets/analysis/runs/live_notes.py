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
from .inputs import per_run


def mode_column(tag: str) -> str:
    """The ``frame`` column of failure mode ``tag``."""
    return f"{MODE_PREFIX}{tag}"


def sample_modes(notes: Notes, query_id: str) -> tuple[bool, tuple[str, ...]]:
    """Whether sample ``query_id`` was read (any note in force) and its tags (:meth:`Notes.tags_of`)."""
    return bool(notes.for_sample(query_id)), notes.tags_of(query_id)


class LiveNotes:
    """The notes of an :class:`~.memory.InMemoryRun`: per run the notes in force (``_notes``),
    their file (``_note_logs``, where given as a path) and the mode columns' values
    (``_modes``: column -> one float per ``frame`` row)."""

    noted_rows = np.zeros(0, dtype=np.int64)  # the frame positions of the samples the last add_notes() noted

    def _hold_notes(self, notes) -> None:
        """Each run's notes (``notes``: one run's or ``{run: ...}``; a path: a NoteLog, its file made
        on the first note; none given: the notes its Scores carry) and the mode columns."""
        given = per_run(notes, self.runs, "notes", "a note names a sample of one run")
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
        self._noted(run, list(dict.fromkeys(n.query_id for n in items)))
        return items

    def change_notes(self, run: str, change) -> list[Note]:
        """Write the new versions ``change`` (Notes -> Notes' ``retagged`` / ``tagged`` list) gives
        of ``run``'s notes: with a notes file, computed from the file under its lock, so that
        another writer's lines since it was opened are changed too, never overwritten by an older
        version (:meth:`~ragwidgets.notes.NoteLog.changed`); then in force, every sample's mode
        columns found again, and a mode no note carries any more loses its column. Returns them."""
        if run not in self.runs:
            raise InputError(f"no run {run!r:.80}; runs: {', '.join(map(repr, self.runs))}", field="run")
        if run in self._note_logs:
            made = self._note_logs[run].changed(change)
            self._notes[run] = self._note_logs[run].notes
            noted = self._notes[run].query_ids  # the file may hold other writers' notes: every sample read
        else:
            made = list(change(self._notes[run]))
            self._notes[run] = self._notes[run] + Notes(made)
            noted = list(dict.fromkeys(n.query_id for n in made))
        self._noted(run, noted)
        return made

    def _noted(self, run: str, query_ids: list[str]) -> None:
        """After ``run``'s notes on ``query_ids`` changed: their mode columns found again, the
        columns of modes no note carries dropped (unless the filter or the sort uses one), and the
        version moved when the columns changed (the rows the front end holds lack or have them)."""
        columns = set(self._modes)
        self.noted_rows = self._set_modes(run, query_ids)
        carried = {t for other in self.runs for t in self._notes[other].tags}
        used = self.query.expression or ""
        dead = [c for c in self._modes if c[len(MODE_PREFIX):] not in carried
                and c not in used and c != self.query.sort_by]
        if dead:
            for c in dead:
                del self._modes[c]
            self._rows.drop_columns(dead)
        if set(self._modes) != columns:
            self.version += 1

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
