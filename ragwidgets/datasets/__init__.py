"""Datasets that ship with ragwidgets: RefChecker's human claim labels (real) and a generated run
(for scale)."""

from .refchecker import SETTINGS, SYSTEMS, refchecker_claims, refchecker_human
from .synthetic import synthetic_run

__all__ = ["refchecker_human", "refchecker_claims", "synthetic_run", "SETTINGS", "SYSTEMS"]
