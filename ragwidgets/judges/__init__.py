"""Judges: from raw question / answer / passages to claims and labels.

- ``Judge`` (protocol) and ``BaseJudge`` (cache, stats, batching, progress, sync wrappers);
- ``OpenAICompatibleJudge``: any chat-completions server;
- offline judges: ``LexicalJudge`` (a token-overlap baseline, not an LLM), ``FactJudge`` (authored
  fact IDs), ``PrecomputedJudge`` (given answers), ``LocalChecker`` (an NLI model or grounding
  checker on this machine, ONNX Runtime: the ``[local]`` extra);
- ``ComposedJudge``: parts per operation (claims and REQUIRED/OPTIONAL labels from an LLM, checks from a LocalChecker);
- ``register_judge`` / ``get_judge``: judges by key (``"lexical"`` is registered by default);
- ``JudgeCache``: the sqlite cache (``DirectoryCache``: one file per answer, for a shared filesystem); ``fill_labels``: fill RAGChecker-format records;
- ``trace_of`` / ``find_trace``: why a judge gave a label (the prompt and raw reply it kept), without a call.
"""

from .base import BaseJudge, CallOutcome
from .cache import DirectoryCache, JudgeCache, default_cache_path
from .claims import claim_text
from .composed import ComposedJudge
from .errors import FillInputError, JudgeError, JudgeInterrupted, JudgeRequestError, JudgeRunStopped, UnknownJudgeError
from .facts import FactJudge
from .fill import JUDGE_NEEDS, FilledRecords, afill_labels, fill_labels, plan_fill
from .jobs import CheckJob, DryRun, ExtractJob, LabelJob, OperationPlan
from .lexical import LexicalJudge
from .local import LocalChecker
from .openai_compatible import OpenAICompatibleJudge
from .precomputed import PrecomputedJudge
from .protocol import Judge
from .registry import get_judge, register_judge, registered_judges, unregister_judge
from .results import CallUsage, ExtractedClaim, JudgeResult, JudgeStats, Usage
from .sync import run_sync
from .traces import Trace, TraceAnswer, find_trace, trace_of

register_judge("lexical", LexicalJudge())

__all__ = [
    "BaseJudge",
    "CallOutcome",
    "CallUsage",
    "CheckJob",
    "ComposedJudge",
    "DryRun",
    "ExtractJob",
    "ExtractedClaim",
    "FactJudge",
    "FillInputError",
    "FilledRecords",
    "Judge",
    "DirectoryCache",
    "JudgeCache",
    "JudgeError",
    "JudgeInterrupted",
    "JudgeRequestError",
    "JudgeResult",
    "JudgeRunStopped",
    "JudgeStats",
    "LabelJob",
    "LexicalJudge",
    "LocalChecker",
    "JUDGE_NEEDS",
    "OpenAICompatibleJudge",
    "OperationPlan",
    "PrecomputedJudge",
    "Trace",
    "TraceAnswer",
    "UnknownJudgeError",
    "Usage",
    "afill_labels",
    "claim_text",
    "default_cache_path",
    "fill_labels",
    "find_trace",
    "get_judge",
    "plan_fill",
    "register_judge",
    "registered_judges",
    "run_sync",
    "trace_of",
    "unregister_judge",
]
