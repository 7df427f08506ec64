"""Tiny sequence classifiers the tests build themselves, saved as a LocalChecker folder (model.onnx,
tokenizer.json, config.json): no download, a real ONNX graph and a real Hugging Face tokenizer.

The graph is a bag-of-words classifier: token embeddings (Gather), their mean over the attention
mask, a hidden layer with ReLU and a linear head to the logits; ``random_model`` initialises it at
random, ``keyword_model`` fixes it so that its answer is known: a pair holding the word "yes" is
entailed, one holding "no" contradicted, anything else neutral (a strong margin), and in its binary
form "yes" is supported."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np

from ragwidgets.judges import LocalChecker, fill_labels
from ragwidgets.reviews import Review, Reviews

WORDS = ("yes no the harbor museum opened in 1890 it has two piers ferries leave hourly pier is old a "
         "claim passage about year wrong right answer").split()
SPECIAL = ("[PAD]", "[UNK]", "[CLS]", "[SEP]")
FILLER = "the harbor museum opened in 1890 it has two piers"  # 10 words with no keyword


def _tokenizer(folder: Path) -> dict[str, int]:
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    vocab = {w: i for i, w in enumerate((*SPECIAL, *WORDS))}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])])
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    tok.save(str(folder / "tokenizer.json"))
    return vocab


def _graph(folder: Path, embedding, w1, b1, w2, b2, token_types: bool) -> None:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    inputs = [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"]),
              helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "sequence"])]
    if token_types:  # read and ignored, as a BERT-style export has it
        inputs.append(helper.make_tensor_value_info("token_type_ids", TensorProto.INT64, ["batch", "sequence"]))
    init = [numpy_helper.from_array(np.asarray(a, dtype=np.float32), name)
            for name, a in (("embedding", embedding), ("w1", w1), ("b1", b1), ("w2", w2), ("b2", b2))]
    init.append(numpy_helper.from_array(np.array([2], dtype=np.int64), "axis_2"))
    init.append(numpy_helper.from_array(np.array([1], dtype=np.int64), "axis_1"))
    nodes = [
        helper.make_node("Gather", ["embedding", "input_ids"], ["embedded"]),
        helper.make_node("Cast", ["attention_mask"], ["mask"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["mask", "axis_2"], ["mask3"]),
        helper.make_node("Mul", ["embedded", "mask3"], ["masked"]),
        helper.make_node("ReduceSum", ["masked", "axis_1"], ["summed"], keepdims=0),
        helper.make_node("ReduceSum", ["mask", "axis_1"], ["count"], keepdims=1),
        helper.make_node("Div", ["summed", "count"], ["mean"]),
        helper.make_node("MatMul", ["mean", "w1"], ["h0"]),
        helper.make_node("Add", ["h0", "b1"], ["h1"]),
        helper.make_node("Relu", ["h1"], ["h"]),
        helper.make_node("MatMul", ["h", "w2"], ["l0"]),
        helper.make_node("Add", ["l0", "b2"], ["logits"]),
    ]
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", w2.shape[1]])]
    graph = helper.make_graph(nodes, "tiny_checker", inputs, outputs, init)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(folder / "model.onnx"))


def _config(folder: Path, labels) -> None:
    (folder / "config.json").write_text(json.dumps({"id2label": {str(i): name for i, name in enumerate(labels)}}))


def random_model(folder, labels=("entailment", "neutral", "contradiction"), *, seed=0, dim=16,
                 token_types=True) -> Path:
    """A randomly initialised bag-of-words classifier with ``labels`` as its outputs."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    vocab = _tokenizer(folder)
    rng = np.random.default_rng(seed)
    k = len(labels)
    _graph(folder, rng.normal(0, 1, (len(vocab), dim)), rng.normal(0, .5, (dim, dim)), np.zeros(dim),
           rng.normal(0, .5, (dim, k)), np.zeros(k), token_types)
    _config(folder, labels)
    return folder


def keyword_model(folder, *, binary=False, strength=60.0, labels=None) -> Path:
    """A classifier fixed by construction: "yes" in the pair → entailment (binary: supported), "no" →
    contradiction (binary: nothing), else neutral. The logit of a keyword is ``strength`` / the
    pair's length in tokens (the mean pools it), so a keyword diluted in a long chunk weighs less."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    vocab = _tokenizer(folder)
    names = labels or (("not_supported", "supported") if binary else ("entailment", "neutral", "contradiction"))
    k = len(names)
    embedding = np.zeros((len(vocab), k))
    if binary:
        embedding[vocab["yes"], 1] = strength
        b2 = np.array([1.0, 0.0])  # "not supported" by a margin when no keyword is there
    else:
        embedding[vocab["yes"], 0] = strength
        embedding[vocab["no"], 2] = strength
        b2 = np.array([0.0, 1.0, 0.0])
    _graph(folder, embedding, np.eye(k), np.zeros(k), np.eye(k), b2, token_types=True)
    _config(folder, names)
    return folder


def transformers_model(folder, labels=("entailment", "neutral", "contradiction"), *, seed=0,
                       onnx: bool = False) -> Path:
    """A randomly initialised two-layer BERT sequence classifier (hidden size 16, 128 positions,
    weights of standard deviation 0.5 so that its outputs differ from pair to pair)
    over the tests' WordLevel tokenizer, saved as ``save_pretrained`` writes it (safetensors, the
    tokenizer beside it); with ``onnx``, also exported by ``torch.onnx`` to ``model.onnx`` in the
    same folder, so the ONNX back end reads the same model."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    vocab = _tokenizer(folder)
    tokenizer = PreTrainedTokenizerFast(tokenizer_file=str(folder / "tokenizer.json"), pad_token="[PAD]",
                                        unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]",
                                        model_input_names=["input_ids", "token_type_ids", "attention_mask"])
    tokenizer.save_pretrained(folder)
    config = BertConfig(vocab_size=len(vocab), hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=32, max_position_embeddings=128, pad_token_id=0, initializer_range=0.5,
                        id2label=dict(enumerate(labels)), label2id={name: i for i, name in enumerate(labels)})
    torch.manual_seed(seed)
    model = BertForSequenceClassification(config).eval()
    model.save_pretrained(folder)
    if onnx:
        names = ["input_ids", "attention_mask", "token_type_ids"]
        example = tokenizer(["the harbor museum"], ["it has two piers"], return_tensors="pt")
        with warnings.catch_warnings():  # the tracer's notes on BERT's masking code
            warnings.simplefilter("ignore")
            torch.onnx.export(model, tuple(example[n] for n in names), str(folder / "model.onnx"), input_names=names,
                              output_names=["logits"], opset_version=17, dynamo=False,
                              dynamic_axes={**{n: {0: "batch", 1: "sequence"} for n in names},
                                            "logits": {0: "batch"}})
    return folder


def calibration_run(folder, **checker_options):
    """24 samples labelled by a binary checker whose support falls with the passage's length (the
    keyword model at strength 8: a "yes" in a pair of L tokens gives σ(8 / L − 1), so long "yes"
    passages come out Neutral at ½), and reviews of the even samples saying what is true (a "yes"
    passage entails the claim). Returns (checker, records, filled, reviews)."""
    checker = LocalChecker(keyword_model(folder, binary=True, strength=8.0), **checker_options)
    words = FILLER.split()
    records = [{"query_id": f"q{i}", "query": "piers?", "response": "It has two piers.", "gt_answer": "two piers",
                "response_claims": [["it", "has", "two piers"]],
                "retrieved_context": [{"doc_id": "yes", "text": " ".join(["yes", *words[:i % 10], *words[:i // 10]])},
                                      {"doc_id": "plain", "text": " ".join(words[: 2 + i % 7])}]}
               for i in range(24)]
    filled = fill_labels(records, checker, needs={"retrieved2response"}, progress=False)
    reviews = Reviews([Review(f"q{i}", "retrieved2response", 0, "Entailment" if doc == "yes" else "Neutral",
                              doc_id=doc) for i in range(0, 24, 2) for doc in ("yes", "plain")])
    return checker, records, filled, reviews
