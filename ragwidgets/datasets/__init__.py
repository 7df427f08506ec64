"""Datasets that ship with ragwidgets: RefChecker's human claim labels and HaluEval's QA answers
with their known truth (real), and a generated run (for scale)."""

from .halueval import halueval_qa
from .refchecker import SETTINGS, SYSTEMS, refchecker_claims, refchecker_human
from .synthetic import synthetic_run

__all__ = ["halueval_qa", "refchecker_human", "refchecker_claims", "synthetic_run", "SETTINGS", "SYSTEMS"]
