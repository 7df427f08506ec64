"""The linked widgets: Explorer (a lesson world's states) and SampleExplorer (RAGChecker samples).

State lives in traits, so everything the controls do is also a trait assignment from Python
(``explorer.retrieval = "No retrieval"``). Any change but a selection rebuilds the whole view
state in one step (:func:`ragwidgets.widgets._view.build_view`) into one trait, ``_view``
(:func:`~ragwidgets.widgets.base.view_trait`: the state as JSON text, serialised once, and the
entailment matrix's cells as a binary buffer of the same message), which the front end only
draws; ``view`` is the same state as a dict. A selection (``selected``) changes no metric: the
front end draws it from the view it has (js/src/selection.js) and Python sends nothing back. SampleExplorer keeps a :class:`~ragwidgets.widgets._sample_view.SampleView`
for each of the last VIEWS samples shown. Passages switched on or off are a ``passage_active`` mask over a Batch built once: no
re-parsing and no judge call.
"""

from __future__ import annotations

import contextlib
import os
from collections import OrderedDict
from pathlib import Path

import numpy as np
import pandas as pd
import traitlets

from ..engine import evaluate
from ..engine.batch import Batch
from ..engine.evaluate import Scores, batch_of
from ..engine.explain import SampleExplanation
from ..engine.metrics import metric_label
from ..engine.values import UNDEFINED_POLICIES
from ..errors import InputError
from ..loaders import load_any, parse_sample
from ..judges.traces import Trace, find_trace
from ..model import Sample
from ..notes import NoteLog, Notes, as_notes
from ..analysis.review_queue import EMPTY, EMPTY_STEP, NO_QUEUE, ReviewQueue, review_queue, sample_done
from ..reviews import KINDS, ReviewLog, ReviewProblem, Reviews, apply_reviews, as_reviews
from ..scenario import Scenario, State
from ..sources import is_scoring_result, scoring_records
from .base import Widget, bundled, view_trait
from .lessons import HARBOR_PRESETS, Preset
from ._picker import SampleIndex
from ._sample_view import SampleView
from .dataset.notes import new_note, note_message, notes_view
from ._view import build_view, selectable, with_selection

VIEWS = 32  # SampleExplorer keeps the views (and explanations) of this many samples last shown


class _Linked(Widget):
    """What both explorers share: selection, passages in play, predict-then-reveal, the view."""

    _esm = bundled("widget.js")
    _css = bundled("widget.css")

    _view = view_trait()  # the whole view state: JSON and the matrix's cells (sent as changes to _view_base)
    _view_base = view_trait()
    retrieved = traitlets.List(traitlets.Unicode()).tag(sync=True)
    selected = traitlets.Unicode("").tag(sync=True)
    predict = traitlets.Bool(False).tag(sync=True)
    predictions = traitlets.Dict().tag(sync=True)

    _watched = ("retrieved", "selected", "predict", "predictions")

    def __init__(self, **kwargs):
        self._busy = False
        self._given: frozenset[str] = frozenset()  # the traits the message being applied sets
        self._signature = None
        self._explained = None  # the (state key, labels version) self._explanation was computed for
        self._explanation = None
        self._view_state: dict = {}
        super().__init__(**kwargs)
        self.observe(self._changed, names=list(self._watched))
        self._refresh()

    # -- subclasses ---------------------------------------------------------------------------
    def _state_key(self) -> tuple:
        raise NotImplementedError

    def _labels_version(self):
        """What changes when the labels the view explains change (reviews): none here."""
        return None

    def _implied(self, name: str) -> dict:
        """The traits a change of control ``name`` resets (e.g. a new bundle's passages)."""
        return {}

    def _explain(self) -> SampleExplanation:
        """The engine's explanation of the current state (what ``_state_key`` names)."""
        raise NotImplementedError

    def _build(self, ex: SampleExplanation) -> dict:
        """The view state for ``ex`` under the current controls, selection and predictions."""
        raise NotImplementedError

    # -- the one update path ------------------------------------------------------------------
    @contextlib.contextmanager
    def _quiet(self):
        busy, self._busy = self._busy, True
        try:
            yield
        finally:
            self._busy = busy

    def set_state(self, sync_data):
        """A message from the front end: the traits it sets apply together, and a control's
        implied resets leave them as the message set them."""
        self._given = frozenset(sync_data)
        try:
            super().set_state(sync_data)
        finally:
            self._given = frozenset()

    def _changed(self, change) -> None:
        if self._busy:
            return
        with self._quiet():
            for name, value in self._implied(change["name"]).items():
                if name not in self._given:
                    setattr(self, name, value)
        self._refresh()

    def _refresh(self) -> None:
        """Rebuild every view's data for the current traits: the engine runs once per state and
        labels (a new state clears stale predictions); a selection that no longer exists is cleared.
        A selection alone rebuilds and sends nothing: the front end draws it from the view it has
        (js/src/selection.js), and :attr:`view` applies it here (:func:`~._view.with_selection`)."""
        if self._busy:
            return
        with self._quiet():
            key, labels = self._state_key(), self._labels_version()
            if (key, labels) != self._explained:
                if self._explained is not None and self._explained[0] != key and self.predictions:
                    self.predictions = {}
                self._explanation = self._explain()
                self._explained = (key, labels)
            if self.selected and self.selected not in selectable(self._explanation):
                self.selected = ""
            signature = (key, labels, self.predict, tuple(sorted(self.predictions.items())))
            if signature == self._signature:
                return
            self._signature = signature
            self._view_state = self._build(self._explanation)
            self._show("_view", self._view_state)

    def _controls(self, kind: str, selects: list[dict], presets: list[dict], edited: str = "") -> dict:
        """The controls' view: each select with the value its trait holds now, each preset
        button active when every trait it sets holds its value now, and Reset: the first
        preset, with no selection."""
        return {"kind": kind, "selects": [{**x, "value": getattr(self, x["trait"])} for x in selects],
                "edited": edited,
                "presets": [{**x, "active": all(getattr(self, k) == v for k, v in x["set"].items())}
                            for x in presets],
                "reset": {**presets[0]["set"], "selected": ""}}

    # -- Python API ---------------------------------------------------------------------------
    @property
    def view(self) -> dict:
        """Everything the front end draws, as built for the current traits (the selection's roles
        applied as the front end applies them)."""
        self._view_state = with_selection(self._view_state, self.selected)
        return self._view_state

    @property
    def explanation(self):
        """The current :class:`~ragwidgets.engine.explain.SampleExplanation`."""
        return self._explanation

    @property
    def metrics(self) -> dict[str, float | None]:
        """Current values of every computable metric: a float, or None for Undefined."""
        return {n: m.value for n, m in self._explanation.metrics.items() if m.status != "not computable"}

    @property
    def metrics_frame(self) -> pd.DataFrame:
        """One row per metric: label, value (NaN = Undefined), fraction, status, reason, group."""
        rows = [{"metric": n, "label": metric_label(n), "value": np.nan if m.value is None else m.value,
                 "fraction": m.fraction, "status": m.status, "reason": m.reason or "", "group": m.group}
                for n, m in self._explanation.metrics.items()]
        return pd.DataFrame(rows).set_index("metric")

    def card(self, metric: str) -> dict:
        """The score card the front end shows for ``metric``."""
        for group in self.view["card_groups"]:
            for c in group["cards"]:
                if c["name"] == metric:
                    return c
        raise KeyError(f"no card for {metric!r} (not computable here?)")

    def toggle_passage(self, doc_id: str) -> None:
        """Switch one source in or out of the retrieved set."""
        if doc_id in self.retrieved:
            self.retrieved = [d for d in self.retrieved if d != doc_id]
        else:
            self.retrieved = [*self.retrieved, doc_id]

    def select(self, item: str) -> None:
        """Select ``claim:R1``, ``gt:G1``, ``source:D1`` (or bare ``R1``, ``G1``, ``D1``); "" clears."""
        if item and ":" not in item:
            candidates = [k for k in selectable(self._explanation) if k.split(":", 1)[1] == item]
            if not candidates:
                raise KeyError(f"nothing called {item!r} to select")
            item = sorted(candidates)[0]
        self.selected = item

    def predict_value(self, metric: str, text: str) -> None:
        """Enter a prediction for one card, as the front end does."""
        self.predictions = {**self.predictions, metric: str(text)}


class Explorer(_Linked):
    """All views of a lesson world (a :class:`~ragwidgets.scenario.Scenario`), linked.

    Traits: ``retrieval``, ``answer``, ``citation`` (bundle / rule names), ``retrieved`` (the
    sources in play, in rank order: a bundle's list until a passage is toggled), ``selected``,
    ``predict``, ``predictions``. Setting ``retrieval`` resets ``retrieved`` to that bundle,
    unless the same front-end message sets ``retrieved`` too.
    """

    retrieval = traitlets.Unicode().tag(sync=True)
    answer = traitlets.Unicode().tag(sync=True)
    citation = traitlets.Unicode().tag(sync=True)

    _watched = _Linked._watched + ("retrieval", "answer", "citation")

    def __init__(self, scenario: Scenario | str | Path | dict, presets: list[Preset] | None = None, **kwargs):
        self.scenario = scenario if isinstance(scenario, Scenario) else Scenario.load(scenario)
        sc = self.scenario
        d = sc.default_state
        self.presets = [Preset("Default", "The lesson's starting state.", d.retrieval, d.answer, d.citation)] + list(presets or [])
        self._batches: dict[tuple[str, str], Batch] = {}
        # What the controls offer does not change with the state: built once.
        self._selects = [
            {"trait": "retrieval", "label": "Retrieval bundle", "options": list(sc.retrieval_bundles)},
            {"trait": "answer", "label": "Answer bundle", "options": list(sc.answer_bundles)},
            {"trait": "citation", "label": "Citation rule", "options": list(sc.citation_rules)},
        ]
        self._preset_buttons = [
            {"name": p.name, "note": p.note,
             "set": {"retrieval": p.retrieval, "answer": p.answer, "citation": p.citation,
                     "retrieved": list(sc.retrieval_bundles[p.retrieval])}}
            for p in self.presets]
        self._fact_texts = {f: info.get("text", "") for f, info in sc.facts.items()}
        kwargs.setdefault("retrieval", d.retrieval)
        kwargs.setdefault("answer", d.answer)
        kwargs.setdefault("citation", d.citation)
        kwargs.setdefault("retrieved", list(sc.retrieval_bundles[kwargs["retrieval"]]))
        super().__init__(**kwargs)

    @classmethod
    def harbor(cls, **kwargs) -> "Explorer":
        """The shipped Harbor Museum lesson, with its experiments as presets."""
        return cls(Scenario.harbor(), presets=HARBOR_PRESETS, **kwargs)

    # -- validation ---------------------------------------------------------------------------
    def _check(self, value: str, options, what: str) -> str:
        if value not in options:
            raise traitlets.TraitError(f"unknown {what} {value!r}; known: {', '.join(options)}")
        return value

    @traitlets.validate("retrieval")
    def _valid_retrieval(self, proposal):
        return self._check(proposal["value"], self.scenario.retrieval_bundles, "retrieval bundle")

    @traitlets.validate("answer")
    def _valid_answer(self, proposal):
        return self._check(proposal["value"], self.scenario.answer_bundles, "answer bundle")

    @traitlets.validate("citation")
    def _valid_citation(self, proposal):
        return self._check(proposal["value"], self.scenario.citation_rules, "citation rule")

    @traitlets.validate("retrieved")
    def _valid_retrieved(self, proposal):
        value = list(proposal["value"])
        for doc_id in value:
            self._check(doc_id, self.scenario.doc_ids, "source")
        if len(set(value)) != len(value):
            raise traitlets.TraitError(f"retrieved lists a source twice: {value}")
        return value

    # -- state --------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return State(self.retrieval, self.answer, self.citation)

    def move_to(self, retrieval: str | None = None, answer: str | None = None,
                  citation: str | None = None) -> None:
        """Move to a state in one step (None keeps that part)."""
        with self.hold_trait_notifications():
            if retrieval is not None:
                self.retrieval = retrieval
                self.retrieved = list(self.scenario.retrieval_bundles[retrieval])
            if answer is not None:
                self.answer = answer
            if citation is not None:
                self.citation = citation

    def apply_preset(self, name: str) -> None:
        for p in self.presets:
            if p.name == name:
                self.move_to(p.retrieval, p.answer, p.citation)
                return
        raise KeyError(f"unknown preset {name!r}; known: {', '.join(p.name for p in self.presets)}")

    def reset(self) -> None:
        """Back to the default state, with the bundle's passages and no selection."""
        self.selected = ""
        d = self.scenario.default_state
        self.move_to(d.retrieval, d.answer, d.citation)

    def _state_key(self) -> tuple:
        return (self.retrieval, self.answer, self.citation, tuple(self.retrieved))

    def _implied(self, name: str) -> dict:
        return {"retrieved": list(self.scenario.retrieval_bundles[self.retrieval])} if name == "retrieval" else {}

    def _batch(self, answer: str, citation: str) -> Batch:
        """The state's sample with every source as a passage, in source order; the retrieved
        set is then only a mask. Built once per (answer, citation)."""
        key = (answer, citation)
        if key not in self._batches:
            sc = self.scenario
            record = sc.record(sc.default_state.retrieval, answer, citation)
            record.update(retrieved_context=list(sc.sources), corpus=[])
            self._batches[key] = Batch.from_samples([parse_sample(record)])
        return self._batches[key]

    def _explain(self) -> SampleExplanation:
        in_play = set(self.retrieved)
        active = np.array([d in in_play for d in self.scenario.doc_ids], dtype=bool)
        return evaluate(self._batch(self.answer, self.citation), passage_active=active).explain(0)

    def _build(self, ex: SampleExplanation) -> dict:
        sc = self.scenario
        in_play = set(self.retrieved)
        bundle = sc.retrieval_bundles[self.retrieval]
        added = [d for d in self.retrieved if d not in bundle]
        removed = [d for d in bundle if d not in in_play]
        edited = " ".join([f"+{d}" for d in added] + [f"−{d}" for d in removed])
        if not edited and list(bundle) != list(self.retrieved):
            edited = "reordered"
        controls = self._controls("scenario", self._selects, self._preset_buttons, edited)
        sample = self._batch(self.answer, self.citation).samples[0]
        return build_view(
            ex, sample, kind="scenario", title=sc.title, question=sc.question,
            answer_text=" ".join(c.text for c in ex.claims), gt_answer=sample.gt_answer,
            ranks={d: k + 1 for k, d in enumerate(self.retrieved)}, fact_texts=self._fact_texts,
            order=list(bundle) + [d for d in sc.doc_ids if d not in bundle],
            controls=controls, state_label=f"{self.retrieval} · {self.answer} · {self.citation}"
            + (f" (passages edited: {edited})" if edited else ""),
            selected=self.selected, predict=self.predict, predictions=self.predictions,
            citation_first=True)

    def state_space(self, metric: str = "context_relevance"):
        """A heatmap of ``metric`` over every state (one anywidget, metric picker included),
        linked: it outlines this Explorer's state, and a click on a cell goes there."""
        from .state_space import StateSpace
        return StateSpace(self, metric)

    def __repr__(self) -> str:
        return f"Explorer({self.scenario.title!r}, state={self.state})"


class SampleExplorer(_Linked):
    """All views of RAGChecker-format samples: the eleven RAGChecker metrics plus the citation
    family where the data allows. Toggling passages is a what-if over the known labels.

    Traits: ``sample_index`` (which sample, when given several), ``retrieved`` (doc_ids in
    play), ``undefined`` ("null": Undefined stays Undefined; "zero": ragchecker 0.1.9's zeros),
    ``selected``, ``predict``, ``predictions``.

    ``sample``: a Sample, anything :func:`~ragwidgets.loaders.as_samples` reads, or a
    :class:`~ragwidgets.engine.evaluate.Scores` (its samples and metrics are reused; scores
    evaluated with reviews open on the judge's labels with those reviews in force), or a
    :class:`~ragwidgets.scoring.ScoringResult` (as DatasetExplorer takes it: its judge's labels,
    its reviews in force);
    ``query_id`` opens that sample. With several samples the view carries a picker of constant
    size (the current sample, previous / next); searching by query text and metric values is a
    custom message answered from Python (:mod:`ragwidgets.widgets._picker`), so a click costs
    the same at 10 samples and at 100,000.

    Reviews: every label a metric reads can be reviewed (:meth:`review`, or E / N / C on a
    focused claim row or matrix cell in the view), and every metric is recomputed from the
    reviewed labels at once, no judge call; the view says what changed against the judge's
    labels. ``reviews``: reviews to start from, a path of a reviews file (JSONL: read, and each
    new review appended to it as it happens) or anything
    :func:`~ragwidgets.reviews.as_reviews` takes; ``reviewer``: the name each new review
    carries; ``judge``: the judge that gave the labels, whose trace of a label (its prompt and
    raw reply) the view opens from the claim row (:meth:`trace`).

    Failure notes (``notes``: a notes file's path, read and appended to, or anything
    :func:`~ragwidgets.notes.as_notes` takes; ``author``: the name each new note carries, default
    ``reviewer``): the view carries the DatasetExplorer's note box over the sample (key m,
    Enter saves and opens the next sample), :meth:`note` writes one from Python.
    """

    sample_index = traitlets.Int(0).tag(sync=True)
    undefined = traitlets.Unicode("null").tag(sync=True)

    _watched = _Linked._watched + ("sample_index", "undefined")

    def __init__(self, sample, query_id: str | None = None, *, reviews=None, reviewer: str = "", judge=None,
                 notes=None, author: str = "", **kwargs):
        if is_scoring_result(sample):  # RagChecker.score's result (as DatasetExplorer takes it): its judge's records
            sample, given = scoring_records(sample)
            reviews = given if reviews is None else reviews
        if isinstance(sample, Scores) and sample.judge_scores is not None:  # scored with reviews: judge and reviews apart
            reviews = sample.reviews if reviews is None else reviews
            sample = sample.judge_scores
        self._scores = sample if isinstance(sample, Scores) else None
        self._loaded = None if self._scores is not None else load_any(sample)
        samples = self._scores.samples if self._scores is not None else self._loaded.samples
        if not len(samples):
            raise ValueError("no samples to explore")
        self.samples = samples
        self.reviewer = str(reviewer)
        self.author = str(author) or self.reviewer  # the name new notes carry
        self.judge = judge
        self._note_log = NoteLog(notes) if isinstance(notes, (str, os.PathLike)) else None
        self._notes = None if notes is None else self._note_log.notes if self._note_log else as_notes(notes)
        self._log = ReviewLog(reviews) if isinstance(reviews, (str, os.PathLike)) else None
        self._reviews = self._log.reviews if self._log is not None else as_reviews(reviews or ())
        self._problems: list[ReviewProblem] = apply_reviews(samples, self._reviews).problems if len(self._reviews) else []
        self._review_error = ""  # why the front end's last review action was refused
        self._queue: ReviewQueue | None = None
        self._queue_at = 0  # the queue's item shown (its index in the queue)
        self._queue_done: dict[str, bool] = {}  # per queued query_id: every label of queue.kinds reviewed
        self._views: OrderedDict[int, SampleView] = OrderedDict()  # the last VIEWS shown, oldest first
        self._index: SampleIndex | None = None
        if query_id is not None:
            kwargs["sample_index"] = self._position(query_id)
        kwargs.setdefault("retrieved", self._all_passages(kwargs.get("sample_index", 0)))
        super().__init__(**kwargs)

    def _position(self, query_id: str) -> int:
        if self._scores is not None:
            return self._scores.sample_index(query_id)
        for k, s in enumerate(self.samples):
            if s.query_id == query_id:
                return k
        raise KeyError(f"no sample with query_id {query_id!r}")

    # -- the picker ---------------------------------------------------------------------------
    @property
    def picker(self) -> SampleIndex:
        """The searchable index of every sample (built on the first search)."""
        if self._index is None:
            def frame():
                return (self._scores or evaluate(batch_of(self._loaded))).frame
            flat = self._loaded.flat if self._loaded is not None else None
            if flat is not None:  # read by the fast path: the texts without building every Sample
                ids, queries = list(flat.query_ids), flat.samples.texts("query")
            else:
                ids, queries = [s.query_id for s in self.samples], [s.query for s in self.samples]
            self._index = SampleIndex(ids, queries, compute_frame=frame)
        return self._index

    def search(self, text: str, limit: int = 50) -> dict:
        """The samples whose query text or query_id holds every word of ``text`` and whose metrics
        meet its conditions (``faithfulness<0.5``, ``hallucination=undefined``): see
        :mod:`ragwidgets.widgets._picker`."""
        return self.picker.search(text, limit)

    _reply_types = {"search": "results", "trace": "trace"}
    _notices = ("review", "queue")

    def _handlers(self) -> dict:
        """The front end's messages (base.Widget answers each request, with ``error`` when its
        handler raises). A search: {"type": "search", "text", "request"} -> {"type": "results",
        "request", "matches", "rows"}. A trace: {"type": "trace", "kind", "claim", "doc_id",
        "request"} -> {"type": "trace", "request", "trace" (None: none kept), "reason"}. Notices,
        no reply: a review {"type": "review", "kind", "claim", "label" (None: confirm the
        judge's), "doc_id"} and a queue step {"type": "queue", "step"}: the view is the answer (a
        refused one says why in ``view["review"]["error"]``)."""
        return {"search": lambda m, _: self.search(str(m.get("text", ""))),
                "trace": lambda m, _: self._trace_reply(m.get("kind"), m.get("claim"), m.get("doc_id")),
                "review": lambda m, _: self._refused_in_view(
                    self.review, m.get("kind"), m.get("claim"), m.get("label"), m.get("doc_id")),
                "queue": lambda m, _: self._refused_in_view(self.next_in_queue, m.get("step", 1)),
                "note": lambda m, _: self._note_request(m)}

    def _trace_reply(self, kind, claim, doc_id) -> dict:
        try:
            found, reason = self._find_trace(kind, claim, doc_id)
        except (ValueError, TypeError) as exc:  # a label not in this sample: no trace, and why
            return {"trace": None, "reason": str(exc)}
        return {"trace": None if found is None else found.to_json(), "reason": reason}

    def _refused_in_view(self, action, *args) -> None:
        """Run a review action; a ValueError's reason shows in ``view["review"]["error"]``."""
        try:
            action(*args)
        except ValueError as exc:
            self._review_error = str(exc)
            self._signature = None
            self._refresh()

    # -- failure notes ------------------------------------------------------------------------
    @property
    def notes(self) -> Notes:
        """The failure notes in force (empty without ``notes=``)."""
        return self._notes if self._notes is not None else Notes()

    def note(self, query_id: str | None = None, text: str = "", tags=(), claim: int | None = None):
        """Write a failure note on sample ``query_id`` (None: the one shown; ``claim``: on its
        response claim of that 0-based index): ``text``, ``tags`` (a list, or comma-separated
        text), by ``author``; appended to the notes file first when ``notes=`` was a path. Returns
        the Note; an InputError names a bad field."""
        sample = self.samples[self.sample_index if query_id is None else self._note_position(query_id)]
        made = new_note(sample, text, tags, claim, self.author)
        if self._note_log is not None:
            self._note_log.append(made)
            self._notes = self._note_log.notes
        else:
            self._notes = self.notes + Notes([made])
        self._signature = None
        self._refresh()
        return made

    def _note_position(self, query_id) -> int:
        """The position of sample ``query_id``; an InputError naming the field when there is none."""
        if not isinstance(query_id, str):
            raise InputError(f"must be a sample's query_id, not {query_id!r:.80}", field="query_id")
        try:
            return self._position(query_id)
        except (KeyError, ValueError, TypeError):
            raise InputError(f"no sample {query_id!r:.80}", field="query_id") from None

    def _note_request(self, message: dict) -> None:
        """The note box's note (:func:`~.dataset.notes.note_message`), then with ``advance`` the next
        sample (the review queue's when one is started, else the next of the samples)."""
        m = note_message(message)
        if m["run"] not in (None, ""):
            raise InputError(f"a SampleExplorer has no runs, not {m['run']!r:.80}", field="run")
        shown = self.samples[self.sample_index].query_id
        if m["advance"] and m["query_id"] is not None and m["query_id"] != shown:  # a box drawn for a sample left
            raise InputError(f"sample {m['query_id']!r:.80} is no longer the one shown: note not saved", field="query_id")
        self.note(m["query_id"] if m["query_id"] is not None else None, m["text"], m["tags"], m["claim"])
        if m["advance"] and self._queue is not None and len(self._queue):
            self.next_in_queue(m["advance"])
        elif m["advance"]:
            self.sample_index = min(max(self.sample_index + m["advance"], 0), len(self.samples) - 1)

    # -- reviews ------------------------------------------------------------------------------
    @property
    def reviews(self) -> Reviews:
        """Every review, those given at the start and those made here since (a later one of the
        same label wins)."""
        return self._reviews

    @property
    def review_problems(self) -> list[ReviewProblem]:
        """The reviews given at the start that do not match their sample (not applied)."""
        return list(self._problems)

    def review(self, kind: str, claim: int, label: str | None, doc_id: str | None = None, note: str = "") -> list:
        """Review a label of the current sample: ``kind`` one of ``ragwidgets.reviews.KINDS``,
        ``claim`` the 0-based claim of that label matrix (response claims for answer2response /
        retrieved2response, ground-truth claims for the others), ``label`` Entailment / Neutral /
        Contradiction (any case) or None to confirm the judge's label, ``doc_id`` the passage for
        a retrieved2* kind (None there: every passage of the row, e.g. "not supported by any
        passage" = ``review("retrieved2response", j, "Neutral")``). The metrics update at once;
        the reviews are appended to the reviews file when one was given. Returns the Reviews made
        (InputError naming the sample and field when the action does not fit the sample)."""
        made = self._sample_view().review(kind, claim, label, doc_id, reviewer=self.reviewer, note=note)
        if self._log is not None:
            for r in made:
                self._log.append(r)
        self._reviews = self._reviews + Reviews(made)
        self._review_error = ""
        if self._queue is not None and self.sample.query_id in self._queue_done:
            self._queue_done[self.sample.query_id] = self._done(self.sample_index)
        self._refresh()
        return made

    # -- the review queue ---------------------------------------------------------------------
    def start_review(self, n: int = 200, strategy: str = "random", *, seed: int = 0, **options) -> ReviewQueue:
        """Step through the next ``n`` samples to review (:func:`ragwidgets.analysis.review_queue`:
        ``strategy`` "random", "stratified" with ``by=``, or "consequential" with ``metric=``;
        samples fully reviewed already are skipped, except, with ``double=``, a share of those one
        other reviewer has reviewed, which come back to ``reviewer`` as second reviews) and open the
        first. The view shows the progress ("37 of 200 reviewed"); :meth:`next_in_queue` (or ] and
        [ in the view) moves along it."""
        scores = self._scores or evaluate(batch_of(self._loaded))
        queue = review_queue(scores, n, strategy=strategy, seed=seed, reviews=self._reviews, reviewer=self.reviewer,
                             **options)
        self._queue, self._queue_at = queue, 0
        self._queue_done = {q: False for q in queue.query_ids}  # drawn: not fully reviewed, or not yet by this reviewer
        if len(queue):
            self.sample_index = self._position(queue.query_ids[0])
        self._signature = None
        self._refresh()
        return queue

    def next_in_queue(self, step: int = 1) -> None:
        """Open the queue's item ``step`` places on (negative: back), kept within the queue."""
        if self._queue is None or not len(self._queue):
            raise ValueError(NO_QUEUE if self._queue is None else EMPTY_STEP)
        if isinstance(step, bool) or not isinstance(step, int):
            raise ValueError(f"step must be a whole number, not {step!r:.80}")
        self._queue_at = min(max(self._queue_at + step, 0), len(self._queue) - 1)
        target = self._position(self._queue.query_ids[self._queue_at])
        if target != self.sample_index:
            self.sample_index = target
        else:
            self._signature = None
            self._refresh()

    @property
    def review_progress(self) -> tuple[int, int] | None:
        """(reviewed, total) of the queue started with :meth:`start_review`; None without one."""
        if self._queue is None:
            return None
        return sum(self._queue_done.values()), len(self._queue)

    def _done(self, index: int) -> bool:
        """Whether sample ``index`` of the queue is done (:func:`~ragwidgets.analysis.review_queue.sample_done`)."""
        return sample_done(self._queue, self.samples[index], self._reviews)

    def _queue_view(self) -> dict | None:
        if self._queue is None:
            return None
        reviewed, total = self.review_progress
        return {"strategy": self._queue.strategy, "position": self._queue_at, "total": total, "reviewed": reviewed,
                "line": f"{reviewed} of {total} reviewed" if total else EMPTY,
                "query_id": self._queue.query_ids[self._queue_at] if total else None, "note": self._queue.note,
                "double": "second review" if total and self._queue.query_ids[self._queue_at] in self._queue.double
                else None}

    def _find_trace(self, kind, claim, doc_id=None):
        if self.judge is None:
            return None, "no trace kept: no judge was given (SampleExplorer(..., judge=...))"
        return find_trace(self.judge, self._sample_view().judged, kind, claim, doc_id)

    def trace(self, kind: str, claim: int, doc_id: str | None = None) -> Trace | None:
        """The judge's trace behind one label of the current sample (its prompt and raw reply), or
        None when none was kept or no ``judge`` was given."""
        return self._find_trace(kind, claim, doc_id)[0]

    def _picker_view(self) -> dict | None:
        if len(self.samples) < 2:
            return None
        s = self.sample
        return {"index": self.sample_index, "total": len(self.samples), "query_id": s.query_id,
                "query": s.query if len(s.query) <= 200 else s.query[:199] + "…"}

    @classmethod
    def ragchecker_example(cls, **kwargs) -> "SampleExplorer":
        """RAGChecker's own two-sample example, shipped with the package."""
        from importlib import resources
        path = resources.files("ragwidgets.data").joinpath("ragchecker_example.json")
        return cls(str(path), **kwargs)

    @property
    def sample(self) -> Sample:
        return self.samples[self.sample_index]

    def _all_passages(self, index: int) -> list[str]:
        return [p.doc_id for p in self.samples[index].passages]

    @traitlets.validate("sample_index")
    def _valid_index(self, proposal):
        i = proposal["value"]
        if not 0 <= i < len(self.samples):
            raise traitlets.TraitError(f"sample_index {i} out of range: {len(self.samples)} samples")
        return i

    @traitlets.validate("undefined")
    def _valid_undefined(self, proposal):
        if proposal["value"] not in UNDEFINED_POLICIES:
            raise traitlets.TraitError("undefined must be 'null' or 'zero'")
        return proposal["value"]

    @traitlets.validate("retrieved")
    def _valid_retrieved(self, proposal):
        known = self._all_passages(self.sample_index)
        unknown = [d for d in proposal["value"] if d not in known]
        if unknown:
            raise traitlets.TraitError(f"not a passage of this sample: {', '.join(unknown)}; "
                                       f"known: {', '.join(known)}")
        given = set(proposal["value"])
        return [d for d in known if d in given]  # rank order

    def reset(self) -> None:
        """Every passage back in play, no selection."""
        self.selected = ""
        self.retrieved = self._all_passages(self.sample_index)

    def _state_key(self) -> tuple:
        return (self.sample_index, self.undefined, tuple(self.retrieved))

    def _labels_version(self):
        return self._sample_view().reviewed.version

    def _implied(self, name: str) -> dict:
        return {"retrieved": self._all_passages(self.sample_index), "selected": ""} if name == "sample_index" else {}

    def _sample_view(self) -> SampleView:
        """The current sample's :class:`SampleView`: kept for the last VIEWS samples shown, made
        again (every passage in play) for one shown before those."""
        i = self.sample_index
        if i in self._views:
            self._views.move_to_end(i)
        else:
            s = self.samples[i]
            self._views[i] = SampleView(s, reviews=self._reviews.for_sample(s.query_id), reviewable=True)
            if len(self._views) > VIEWS:
                self._views.popitem(last=False)
        return self._views[i]

    def _explain(self) -> SampleExplanation:
        sv = self._sample_view()
        sv.apply({"retrieved": self.retrieved, "undefined": self.undefined})
        return sv.explanation

    def _build(self, ex: SampleExplanation) -> dict:
        sv = self._sample_view()
        sv.apply({"selected": self.selected, "predict": self.predict, "predictions": self.predictions})
        view = sv.view()
        view["controls"]["picker"] = self._picker_view()
        view["review"].update(traces=self.judge is not None, error=self._review_error, queue=self._queue_view(),
                              file=self._log.path if self._log is not None else None,
                              next=sv.reviewed.unreviewed(self._queue.kinds if self._queue is not None else KINDS))
        if self._notes is not None:
            view["notes"] = notes_view(self._notes, self.samples[self.sample_index].query_id,
                                       self._note_log.path if self._note_log else None)
        return view

    def __repr__(self) -> str:
        return f"SampleExplorer({len(self.samples)} sample(s), sample_index={self.sample_index})"
