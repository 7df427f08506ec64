"""The sequence classifiers a :class:`~ragwidgets.judges.LocalChecker` runs: the model's logits for
(first, second) text pairs, its outputs' names (``id2label``) and an identity for the cache key.

- :class:`OnnxClassifier`: a folder holding ``model.onnx``, ``tokenizer.json`` (a Hugging Face
  fast tokenizer) and ``config.json``, run by ONNX Runtime (the ``[local]`` extra) — what
  ``optimum-cli export onnx --task text-classification`` writes. Its identity holds the digest
  of the model file and the tokenizer.
- :class:`TransformersClassifier`: a Hugging Face sequence classifier (a folder as
  ``save_pretrained`` writes it, or a hub id, which ``transformers`` downloads on the user's machine
  the first time), run by PyTorch (the ``[torch]`` extra). Its identity holds the digest of the
  weight and tokenizer files for a folder, the hub id and its commit otherwise.

Both load the model at the first run (not when made), truncate a pair on its first text's side
to ``max_length`` tokens, pad a batch to its longest pair, and use a GPU when one is present
(``device`` / ``providers`` otherwise): the labels do not depend on the device, so it is not part
of the identity.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ONNX_FILES = ("model.onnx", "tokenizer.json", "config.json")
ONNX_INSTALL = "pip install 'ragwidgets[local]' (onnxruntime and tokenizers)"
TORCH_INSTALL = "pip install 'ragwidgets[torch]' (torch and transformers)"
WEIGHTS = ("*.safetensors", "*.bin")


def _digest(paths: Sequence[Path]) -> str:
    """The first 16 hex digits of the SHA-256 of the files' bytes, in order, read in 1 MiB blocks."""
    h = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as f:
            while block := f.read(1 << 20):
                h.update(block)
    return h.hexdigest()[:16]


def _id2label(config: dict, where: str) -> dict[int, str]:
    try:
        id2label = {int(k): str(v) for k, v in config["id2label"].items()}
    except (ValueError, KeyError, TypeError, AttributeError) as err:
        raise ValueError(f"{where}: no readable id2label ({err})") from None
    if sorted(id2label) != list(range(len(id2label))) or len(id2label) < 2:
        raise ValueError(f"{where}: id2label must number the outputs 0, 1, ..., got {id2label}")
    return id2label


class OnnxClassifier:
    """An ONNX export in ``folder`` (see the module docstring); ``providers``: ONNX Runtime's
    (default: CUDA when the installed runtime has it, then CPU)."""

    backend = "onnx"

    def __init__(self, folder, *, max_length: int, providers: Sequence[str] | None = None):
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise ValueError(f"model {str(folder)!r} is not a folder: export a checker to ONNX once (optimum-cli "
                             "export onnx --task text-classification --model <hub id> <folder>) and give the folder, "
                             "or give a transformers model (backend='transformers')")
        missing = [f for f in ONNX_FILES if not (self.folder / f).is_file()]
        if missing:
            raise ValueError(f"model folder {str(self.folder)!r} lacks {', '.join(missing)} (an ONNX export needs "
                             f"{', '.join(ONNX_FILES)}; a transformers model, its config.json and weights)")
        config_path = self.folder / "config.json"
        try:
            config = json.loads(config_path.read_text(encoding="utf-8"))
        except ValueError as err:
            raise ValueError(f"{config_path}: no readable id2label ({err})") from None
        self.id2label = _id2label(config, str(config_path))
        self.max_length = max_length
        self.providers = list(providers) if providers else None
        self.identity = f"local:{self.folder.name}@{_digest([self.folder / 'model.onnx', self.folder / 'tokenizer.json'])}"
        self._session = self._tokenizer = None

    def __getstate__(self) -> dict[str, Any]:
        return dict(self.__dict__, _session=None, _tokenizer=None)

    def describe(self) -> str:
        return f"ONNX Runtime, {str(self.folder)!r}"

    def _load(self):
        if self._session is None:
            try:
                import onnxruntime
                from tokenizers import Tokenizer
            except ImportError as err:
                raise ImportError(f"LocalChecker's ONNX back end needs {ONNX_INSTALL}: {err}") from None
            tokenizer = Tokenizer.from_file(str(self.folder / "tokenizer.json"))
            tokenizer.enable_truncation(self.max_length, strategy="only_first")
            pad = tokenizer.padding or {}
            tokenizer.enable_padding(pad_id=pad.get("pad_id", 0), pad_token=pad.get("pad_token", "[PAD]"))
            options = onnxruntime.SessionOptions()
            options.log_severity_level = 3
            available = onnxruntime.get_available_providers()
            providers = self.providers or [p for p in ("CUDAExecutionProvider", "CPUExecutionProvider")
                                           if p in available]
            self._session = onnxruntime.InferenceSession(str(self.folder / "model.onnx"), options,
                                                         providers=providers)
            self._inputs = [i.name for i in self._session.get_inputs()]
            self._tokenizer = tokenizer
        return self._session, self._tokenizer

    def logits(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        session, tokenizer = self._load()
        encoded = tokenizer.encode_batch(list(pairs))
        feeds = {"input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
                 "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
                 "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64)}
        return np.asarray(session.run(None, {name: feeds[name] for name in self._inputs})[0], dtype=np.float64)


class TransformersClassifier:
    """A Hugging Face sequence classifier (see the module docstring); ``device``: PyTorch's
    (default: "cuda" when available, else "cpu")."""

    backend = "transformers"

    def __init__(self, model, *, max_length: int, device: str | None = None):
        try:
            from transformers import AutoConfig
        except ImportError as err:
            raise ImportError(f"LocalChecker's transformers back end needs {TORCH_INSTALL}: {err}") from None
        self.model_id = str(model)
        folder = Path(model)
        try:  # a folder is read here; a hub id is fetched by transformers into its own cache, once
            config = AutoConfig.from_pretrained(self.model_id)
        except (OSError, ValueError) as err:
            raise ValueError(f"model {self.model_id!r}: not a transformers model folder or a hub id it can load "
                             f"({str(err).splitlines()[0]})") from None
        self.id2label = _id2label({"id2label": config.id2label}, f"{self.model_id} config")
        self.max_length, self.device = max_length, device
        if folder.is_dir():
            weights = sorted(p for pattern in WEIGHTS for p in folder.glob(pattern))
            if not weights:
                raise ValueError(f"model folder {self.model_id!r} holds no weights ({', '.join(WEIGHTS)})")
            tokenizer = sorted(p for p in folder.glob("tokenizer*.json") if p.is_file())
            self.identity = f"local:{folder.name}@{_digest(weights + tokenizer)}"
        else:
            self.identity = f"hub:{self.model_id}@{getattr(config, '_commit_hash', None) or 'unknown'}"
        self._model = self._tokenizer = None

    def __getstate__(self) -> dict[str, Any]:
        return dict(self.__dict__, _model=None, _tokenizer=None)

    def describe(self) -> str:
        return f"transformers, {self.model_id!r}"

    def _load(self):
        if self._model is None:
            import torch
            from transformers import AutoModelForSequenceClassification, AutoTokenizer

            device = self.device or ("cuda" if torch.cuda.is_available() else "cpu")
            self._tokenizer = AutoTokenizer.from_pretrained(self.model_id)
            self._model = AutoModelForSequenceClassification.from_pretrained(self.model_id).to(device).eval()
            self._device = device
        return self._model, self._tokenizer

    def logits(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        import torch

        model, tokenizer = self._load()
        first, second = [a for a, _ in pairs], [b for _, b in pairs]
        encoded = tokenizer(first, second, truncation="only_first", max_length=self.max_length, padding=True,
                            return_tensors="pt").to(self._device)
        with torch.inference_mode():
            return model(**encoded).logits.double().cpu().numpy()
