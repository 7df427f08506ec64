"""Error analysis over a whole run: per-sample table, summary with its intervals, filters,
failure slices, paired comparison of runs, run-level what-ifs, and how far the judge can be
trusted: judge–reviewer agreement, corrected scores from a reviewed sample, the review queue and
its budget (plan_reviews); how far reviewers agree with each other (team);
how much of a metric is the judge's noise over repeats (judge_variance); failure modes from
notes with their rates and checks (failure_modes); the regression gate and its A/A check (gate);
a local checker calibrated to the reviews (calibration).

Pure pandas / numpy over the engine's Scores; imports no widget library.
"""

from .agreement import Agreement, AgreementStats, agreement, agreement_stats
from .calibration import Calibration, calibrate, calibrate_checker, reliability, reviewed_checks
from .changes import claim_changes
from .compare import Comparison, compare_runs
from .external import COUNTERPARTS, ExternalComparison, against_external, compare_values
from .corrected import Estimate, Estimates, corrected, corrected_view, prediction_powered
from .filtering import TextIndex, expression_mask, filter_rows
from .groupings import Merge, Proposal, propose_groupings, propose_merges, propose_with_judge
from .gate import VERDICTS, Gate, aa_false_alarms, gate
from .failure_modes import ModeCheck, SIGNALS, check_mode, declared_design, mode_masks, mode_table, signal_mask
from .plan import needed_reviews, plan_reviews, review_plan
from .reading_queue import ReadingQueue, reading_queue
from .judge_variance import (Flakiness, JudgeVariance, MetricVariance, Repeats, combined_interval, flakiness,
                             judge_spread, judge_variance, label_distributions, label_flips, repeat_scores)
from .review_queue import ReviewQueue, progress, review_queue
from .slices import BUILTIN_SLICES, Slice, builtin_slices, load_slices, members, save_slices, slice_table
from .summary import Summarizer, summarize
from .team import ReviewerAgreement, disagreements, reviewer_agreement
from .table import RunTable, defined_metrics, run_table
from .two_judges import TwoJudges, paired_difference, two_judges
from .whatif import Dropped, drop_passages, passage_metrics, passage_rule, top_k_curve

__all__ = ["Calibration", "calibrate", "calibrate_checker", "reliability", "reviewed_checks", "RunTable", "run_table", "defined_metrics", "summarize", "Summarizer", "TextIndex", "expression_mask", "filter_rows", "Slice",
           "BUILTIN_SLICES", "builtin_slices", "members", "slice_table", "save_slices", "load_slices",
           "Comparison", "compare_runs", "top_k_curve", "drop_passages", "passage_rule", "passage_metrics",
           "Dropped", "agreement", "agreement_stats", "Agreement", "AgreementStats", "corrected",
           "prediction_powered", "corrected_view", "Estimate", "Estimates", "review_queue", "progress", "ReviewQueue",
           "against_external", "compare_values", "ExternalComparison", "COUNTERPARTS",
           "two_judges", "TwoJudges", "paired_difference", "Repeats", "repeat_scores", "flakiness", "Flakiness",
           "label_flips", "label_distributions", "judge_variance", "JudgeVariance", "MetricVariance",
           "combined_interval", "judge_spread", "plan_reviews", "review_plan", "needed_reviews",
           "reviewer_agreement", "disagreements", "ReviewerAgreement",
           "Proposal", "propose_groupings", "propose_with_judge", "Merge", "propose_merges",
           "reading_queue", "ReadingQueue", "mode_table", "mode_masks", "declared_design", "check_mode",
           "ModeCheck", "SIGNALS", "signal_mask", "gate", "Gate", "VERDICTS", "aa_false_alarms",
           "claim_changes"]
