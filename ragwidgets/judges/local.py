"""``LocalChecker``: check claims against passages with a classifier on this machine (ONNX Runtime or transformers).

The ``check`` half of a judge, with no API and no data leaving the machine: each claim is put to a
sequence classifier as the pair (passage chunk, claim), as NLI models and grounding checkers
(MiniCheck, HHEM) are trained. A passage longer than ``chunk_words`` words is cut at sentence ends
into chunks of at most that many words (a sentence longer than that at word boundaries), the claim
checked against each, and the chunks pooled: a binary checker's support probability is its
maximum over the chunks (MiniCheck's max-pooling); a three-way model's label is "Entailment" when
some chunk entails the claim, else "Contradiction" when some chunk contradicts it, else "Neutral".
Inference is batched (``batch_size`` pairs a run of the model), on a GPU when one is present.

The model (:mod:`~ragwidgets.judges.classifiers`) is an ONNX export's folder (``model.onnx``,
``tokenizer.json``, ``config.json``: what ``optimum-cli export onnx --task text-classification
--model <hub id> <folder>`` writes; ONNX Runtime) or a Hugging Face sequence classifier (a folder
``save_pretrained`` wrote, or a hub id; PyTorch). Its config is read when the checker is made; the
model is loaded at its first check (not at import). How the model's labels map to ragwidgets' is said
aloud (``mapping``, ``repr``): label names are read (entailment / supported / consistent →
Entailment; neutral / not entailment / unsupported / inconsistent / hallucinated → Neutral;
contradiction → Contradiction), two generic labels (LABEL_0, LABEL_1) are read as (not supported,
supported), and anything else needs ``labels=``. A binary checker never says Contradiction.

Claims are extracted by sentence (one claim per sentence: a splitter, not a reading of the text;
give claims from an LLM judge or the input for better ones) and never labelled REQUIRED / OPTIONAL.
The checker is deterministic: its cache key holds the model's identity (its files' digest, or a
hub id and commit) and every setting that changes a label, and ``trace_check`` works the label out again with each chunk's probabilities.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Optional

import numpy as np

from ..model import CONTRADICTION, ENTAILMENT, NEUTRAL
from .base import BaseJudge, CallOutcome
from .cache import CacheSetting
from .classifiers import WEIGHTS, OnnxClassifier, TransformersClassifier
from .claims import ClaimLike, Reference, claim_text, reference_text, sentences
from .jobs import ExtractJob
from .lexical import sentence_to_claim
from .results import JudgeStats

LABELS = (ENTAILMENT, NEUTRAL, CONTRADICTION)
ALIASES = {  # a model's label name (lower case, "_" / "-" as spaces) -> ragwidgets' label
    **dict.fromkeys(("entailment", "entailed", "entails", "supported", "support", "consistent", "factual"), ENTAILMENT),
    **dict.fromkeys(("neutral", "not entailment", "non entailment", "unsupported", "not supported", "inconsistent",
                     "hallucinated", "hallucination"), NEUTRAL),
    **dict.fromkeys(("contradiction", "contradicted", "contradicts", "contradictory", "refuted"), CONTRADICTION),
}
GENERIC = re.compile(r"label_\d+")
BACKENDS = ("auto", "onnx", "transformers")


def _mapping(id2label: Mapping[int, str], labels) -> tuple[tuple[str, ...], str]:
    """ragwidgets' label for each of the model's outputs (in output order) and how it was found, in words."""
    names = [str(id2label[i]) for i in range(len(id2label))]
    if labels is not None:
        given = dict(enumerate(labels)) if isinstance(labels, (list, tuple)) else dict(labels)
        out = []
        for i, name in enumerate(names):
            mapped = given.get(name, given.get(i))
            if mapped not in LABELS:
                raise ValueError(f"labels: the model's output {i} ({name!r}) needs one of {', '.join(LABELS)}, "
                                 f"got {mapped!r}")
            out.append(mapped)
        how = "given"
    elif len(names) == 2 and all(GENERIC.fullmatch(n.lower()) for n in names):
        out, how = [NEUTRAL, ENTAILMENT], "two generic labels read as (not supported, supported)"
    else:
        out = [ALIASES.get(re.sub(r"[_\-\s]+", " ", n.strip().lower())) for n in names]
        unknown = [n for n, m in zip(names, out) if m is None]
        if unknown:
            raise ValueError(f"the model's labels {', '.join(map(repr, unknown))} are not known names: give "
                             "labels= (a list in output order, or {model label: 'Entailment' | 'Neutral' | "
                             "'Contradiction'})")
        how = "read from the label names"
    if ENTAILMENT not in out:
        raise ValueError(f"no output of the model maps to {ENTAILMENT}: {dict(zip(names, out))}")
    said = ", ".join(f"{n} → {m}" for n, m in zip(names, out))
    return tuple(out), f"{said} ({how})"


def chunks(text: str, words: int) -> list[str]:
    """``text`` cut at sentence ends into chunks of at most ``words`` words (a longer sentence at
    word boundaries); none for a blank text."""
    out, current = [], []
    for sentence in sentences(text):
        tokens = sentence.split()
        if current and len(current) + len(tokens) > words:
            out.append(" ".join(current))
            current = []
        while len(tokens) > words:
            out.append(" ".join(tokens[:words]))
            tokens = tokens[words:]
        current += tokens
    if current:
        out.append(" ".join(current))
    return out


def _softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=1, keepdims=True)


class LocalChecker(BaseJudge):
    """Checks claims against passages with a local classifier (see the module docstring).

    ``model``: an ONNX export's folder, a transformers model's folder or, with
    ``backend="transformers"``, a hub id; ``backend``: "auto" (a folder holding weights,
    ``*.safetensors`` / ``*.bin``, and no ``model.onnx``: transformers; else ONNX Runtime), "onnx"
    or "transformers"; ``labels``: the model's
    outputs as ragwidgets' labels (a list in output order, or ``{model label or index: label}``;
    None: read from its config); ``threshold``: a binary checker's support probability at or above
    which a claim is entailed (default 0.5; with a three-way model, None: the most probable label;
    a number: Entailment when some chunk's P(entailment) reaches it); ``chunk_words`` (default
    400), ``max_length`` (tokens a pair is cut to, the passage's side first; default 512),
    ``batch_size`` (pairs a run; default 16), ``providers`` (ONNX Runtime's) / ``device``
    (PyTorch's): default a GPU when present, else the CPU."""

    check_batch_size = 64  # claims per call; their pairs with the passage's chunks run batch_size at a time
    deterministic = True  # a repeat asks the same question again: one cache key for every repeat

    def __init__(self, model, *, backend: str = "auto", labels=None, threshold: Optional[float] = None,
                 chunk_words: int = 400, max_length: int = 512, batch_size: int = 16,
                 providers: Sequence[str] | None = None, device: str | None = None, cache: CacheSetting = None,
                 progress: bool = False):
        for name, value, low in (("chunk_words", chunk_words, 1), ("max_length", max_length, 8),
                                 ("batch_size", batch_size, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} is a whole number of at least {low}, got {value!r}")
        if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, (int, float))
                                      or not 0 < threshold < 1):
            raise ValueError(f"threshold is a probability strictly between 0 and 1, got {threshold!r}")
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
        folder = Path(model)
        if backend == "auto":
            weights = folder.is_dir() and any(next(folder.glob(pattern), None) for pattern in WEIGHTS)
            backend = "transformers" if weights and not (folder / "model.onnx").is_file() else "onnx"
        self.classifier = (OnnxClassifier(folder, max_length=max_length, providers=providers) if backend == "onnx"
                           else TransformersClassifier(model, max_length=max_length, device=device))
        self.outputs, self.mapping = _mapping(self.classifier.id2label, labels)
        self.binary = CONTRADICTION not in self.outputs and set(self.outputs) == {ENTAILMENT, NEUTRAL}
        super().__init__(cache=cache, progress=progress)
        self.threshold = 0.5 if threshold is None and self.binary else threshold
        self.chunk_words, self.max_length, self.batch_size = chunk_words, max_length, batch_size
        self.model = self.classifier.identity

    def __repr__(self) -> str:
        return (f"LocalChecker({self.classifier.describe()}, {'binary' if self.binary else 'three-way'}: "
                f"{self.mapping}; threshold={self.threshold}, chunk_words={self.chunk_words})")

    def prompt_version(self, operation: str) -> str:
        """Every setting that changes a check's label is in its cache key."""
        if operation != "check":
            return f"{operation}_local_v1"
        return (f"check_local_v1(outputs={','.join(self.outputs)};threshold={self.threshold};"
                f"chunk_words={self.chunk_words};max_length={self.max_length})")

    # -- the model ----------------------------------------------------------------------------
    def load(self) -> "LocalChecker":
        """Load the model now (else at the first check): a missing back end or a broken model is
        said at once, before a run pays for anything else."""
        self.classifier._load()
        return self

    def probabilities(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """The model's output probabilities (pairs x outputs) for (passage chunk, claim) pairs, run
        ``batch_size`` pairs at a time."""
        out = [_softmax(self.classifier.logits(pairs[start:start + self.batch_size]))
               for start in range(0, len(pairs), self.batch_size)]
        return np.concatenate(out) if out else np.zeros((0, len(self.outputs)))

    def _judge(self, claims: Sequence[str], reference: str) -> list[dict]:
        """Per claim: its label, each chunk's probabilities and the chunk that decided."""
        parts = chunks(reference, self.chunk_words)
        probs = self.probabilities([(part, claim) for claim in claims for part in parts])
        entail = [i for i, label in enumerate(self.outputs) if label == ENTAILMENT]
        out = []
        for k in range(len(claims)):
            p = probs[k * len(parts):(k + 1) * len(parts)]
            support = p[:, entail].sum(axis=1)
            top = [self.outputs[i] for i in p.argmax(axis=1)]
            best = int(np.argmax(support))
            by_threshold = self.threshold is not None
            if (support[best] >= self.threshold) if by_threshold else (ENTAILMENT in top):
                label, decided = ENTAILMENT, best if by_threshold else top.index(ENTAILMENT)
            elif CONTRADICTION in top:
                label, decided = CONTRADICTION, top.index(CONTRADICTION)
            else:
                label, decided = NEUTRAL, best
            out.append({"label": label, "chunk": decided, "chunks": len(parts), "support": float(support[decided]),
                        "pooled": float(support[best]), "probabilities": [[float(x) for x in row] for row in p]})
        return out

    def support(self, claims: Sequence[ClaimLike], reference: Reference) -> np.ndarray:
        """Each claim's support probability against ``reference``: P(entailment) max-pooled over the
        passage's chunks (what :func:`ragwidgets.analysis.calibration.calibrate` reads); NaN for a
        blank claim or passage."""
        text, said = reference_text(reference), [claim_text(c) for c in claims]
        out = np.full(len(said), np.nan)
        asked = [i for i, t in enumerate(said) if t.strip()] if text.strip() else []
        for i, verdict in zip(asked, self._judge([said[i] for i in asked], text)):
            out[i] = verdict["pooled"]
        return out

    def calibrated(self, calibration) -> "LocalChecker":
        """This checker labelling by ``calibration``'s threshold on the support (a
        :class:`~ragwidgets.analysis.calibration.Calibration`, or a number strictly between 0 and
        1): a copy sharing the loaded model and the cache, whose cache keys hold the new threshold."""
        threshold = getattr(calibration, "threshold", calibration)
        if threshold is None:
            why = getattr(calibration, "reason", "") or "none given"
            raise ValueError(f"the calibration gives no threshold: {why}")
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 < threshold < 1:
            raise ValueError(f"a threshold is a probability strictly between 0 and 1 (0 would say Entailment of every "
                             f"check, 1 of none), got {threshold!r:.80}")
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__, _identities={}, stats=JudgeStats(), threshold=float(threshold))
        return copy

    # -- the judge's hooks ----------------------------------------------------------------------
    async def _check_call(self, claims: list[ClaimLike], reference: Reference) -> CallOutcome:
        text = reference_text(reference)
        if not text.strip():
            return CallOutcome(None, reason="the passage is blank: nothing to check against")
        texts = [claim_text(c) for c in claims]
        asked = [i for i, t in enumerate(texts) if t.strip()]
        found = self._judge([texts[i] for i in asked], text)
        labels: list = [None] * len(claims)
        for i, verdict in zip(asked, found):
            labels[i] = verdict["label"]
        reasons = {i: "the claim is blank" for i, t in enumerate(texts) if not t.strip()}
        return CallOutcome(labels, item_reasons=reasons)

    async def _extract_call(self, text: str, question: str, instructions: Optional[str]) -> CallOutcome:
        return CallOutcome([sentence_to_claim(s) for s in sentences(text)])

    async def _label_call(self, claims: list[ClaimLike], question: str, instructions: Optional[str]) -> CallOutcome:
        return CallOutcome(None, reason="a local checker does not label claims REQUIRED / OPTIONAL: use an LLM "
                                        "judge for that, or give the labels in the input")

    def trace_check(self, claim: ClaimLike, reference: Reference) -> tuple[Optional[dict], Optional[str]]:
        """The label worked out again (deterministic), with the chunk that decided and its probabilities."""
        text, said = reference_text(reference), claim_text(claim)
        if not text.strip() or not said.strip():
            return None, "unjudged: the passage or the claim is blank"
        v = self._judge([said], text)[0]
        shown = ", ".join(f"{name} {p:.3f}" for name, p in zip(self.outputs, v["probabilities"][v["chunk"]]))
        rule = (f"Entailment if a chunk's P(entailment) ≥ {self.threshold}" if self.threshold is not None else
                "Entailment if a chunk's most probable label is")
        rule += (", else Contradiction if a chunk's most probable label is" if CONTRADICTION in self.outputs else "")
        rule += ", else Neutral"
        note = (f"{v['label']}: the passage in {v['chunks']} chunk(s) of ≤ {self.chunk_words} words; chunk "
                f"{v['chunk'] + 1} decided ({shown}); rule: {rule}; the model's labels: {self.mapping}")
        return {"label": v["label"], "note": note, "model": self.model, "prompt_version": self.prompt_version("check"),
                "probabilities": v["probabilities"]}, None

    def trace_extract(self, job: ExtractJob) -> tuple[Optional[dict], Optional[str]]:
        claims = [sentence_to_claim(s) for s in sentences(job.text)]
        return {"label": claims, "note": f"{len(claims)} claim(s): one per sentence (a splitter, not a reading)",
                "model": self.model, "prompt_version": self.prompt_version("extract")}, None
