"""The static report's trust section: agreement and corrected scores when the run carries reviews."""

import ragwidgets as rw
from judge_runs import judged_records, true_reviews


def test_report_shows_agreement_and_corrected_scores_only_with_reviews(tmp_path):
    truth = rw.datasets.synthetic_run(120, seed=3, quality=0.6)
    judged = judged_records(truth, seed=4)
    judged[0]["query_id"] = truth[0]["query_id"] = "<b>q0</b>"
    reviews = true_reviews(truth, range(0, 120, 4))
    page = rw.DatasetExplorer(rw.evaluate(judged, reviews=reviews)).to_html(tmp_path / "r.html").read_text()
    section = page[page.index("How far can the judge be trusted?"):]
    assert "Cohen's kappa" in section and "answer2response" in section and "Faithfulness" in section
    table = rw.analysis.corrected(rw.evaluate(judged, reviews=reviews))
    assert f"{table.loc['precision', 'corrected_mean']:.3f}" in section
    assert "<b>q0</b>" not in page
    plain = rw.DatasetExplorer(rw.evaluate(judged)).to_html(tmp_path / "p.html").read_text()
    assert "How far can the judge be trusted?" not in plain
