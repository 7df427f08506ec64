// Written by js/make_labels.py from ragwidgets.model.LABEL_CODES and UNJUDGED: do not edit.
export const LABEL_CODES = { Entailment: 1, Neutral: 0, Contradiction: 2 };
export const UNJUDGED = -1;
