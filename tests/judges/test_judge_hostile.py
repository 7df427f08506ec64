"""A hostile or careless server, on loopback (issue 33): replies cut inside a reasoning block of any
spelling, a server that echoes the credentials it was sent, one that answers the same question
differently when asked again; and the traces of repeats."""

from __future__ import annotations

import pytest

from ragwidgets.judges.errors import AnswerParseError
from ragwidgets.judges.answers import final_answer, find_json

CLAIMS = ["Paris is the capital of France.", "Lyon never hosted the Olympics.", "Paris is in Spain."]
REFERENCE = "Paris is the capital of France."
LABELS = ["Entailment", "Contradiction", "Neutral"]

# -- a reply cut inside its reasoning, of any spelling (item 12) --------------------------------------

OPENINGS = ["<seed:think>", '<think type="reasoning">', "◁think▷", "<|channel|>analysis<|message|>"]
CLOSED = ["<seed:think>draft [\"Neutral\"]</seed:think>", '<think type="x">draft ["Neutral"]</think>',
          "◁think▷draft [\"Neutral\"]◁/think▷", "<|channel|>analysis<|message|>draft [\"Neutral\"]<|end|>"]


@pytest.mark.parametrize("opening", OPENINGS)
def test_a_reasoning_block_left_open_in_any_spelling_holds_no_answer(opening):
    with pytest.raises(AnswerParseError, match="not closed"):
        final_answer(f'{opening}A first draft: ["Neutral"]. Let me check that against the')


@pytest.mark.parametrize("block", CLOSED)
def test_a_closed_reasoning_block_in_any_spelling_is_not_the_answer(block):
    assert find_json(f'{block}\n["Entailment"]') == ["Entailment"]
    with pytest.raises(AnswerParseError, match="no JSON"):
        find_json(f"{block} I cannot tell.")


def test_an_answer_after_a_harmony_final_channel_is_read():
    reply = ('<|channel|>analysis<|message|>Draft: ["Neutral"].<|end|><|start|>assistant<|channel|>final'
             '<|message|>["Entailment"]<|return|>')
    assert find_json(reply) == ["Entailment"]


def test_a_closing_seed_tag_whose_opening_was_left_out_ends_the_reasoning():
    assert find_json('draft ["Neutral"] </seed:think> ["Entailment"]') == ["Entailment"]


@pytest.mark.parametrize("opening", OPENINGS)
def test_a_reply_left_in_its_reasoning_is_retried_and_never_cached(make_judge, chat_server, opening):
    chat_server.script.fault_next(*[("think-open", opening)] * 2)  # finish_reason "stop": only the text tells
    judge = make_judge(max_retries=1)
    labels = judge.check(CLAIMS, REFERENCE)
    assert labels == [None] * 3 and "not closed" in labels.reasons[0]
    assert len(judge.cache) == 0
    assert judge.check(CLAIMS, REFERENCE) == LABELS  # asked again: the server answers in full
