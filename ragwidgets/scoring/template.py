"""``TemplateValue``: a configuration value rendered for each row from the row's columns (the
"string, TemplateValue" fields of RagChecker's configuration format)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Union

_PLACEHOLDER = re.compile(r"\{\{\s*([^{}|\s]+)\s*\}\}")
_ANY_TAG = re.compile(r"\{\{|\}\}|\{%|%\}")


@dataclass(frozen=True)
class TemplateValue:
    """``{{ column }}`` placeholders filled from each row, e.g. ``TemplateValue("{{ title }}: {{ question }}")``.

    A template that is one placeholder and nothing else gives the cell as it is (a list of passages
    or claims stays a list); otherwise cells are written into the text with ``str``. Only plain
    placeholders are understood (no filters, no logic): anything else is refused when the template
    is made, and a column the row lacks is an error naming it.
    """

    template: str

    def __post_init__(self) -> None:
        if not isinstance(self.template, str) or not self.template:
            raise TypeError(f"a TemplateValue needs a non-empty template string, got {self.template!r:.60}")
        rest = _PLACEHOLDER.sub("", self.template)
        if _ANY_TAG.search(rest):
            raise ValueError(f"TemplateValue {self.template!r:.80}: only {{{{ column }}}} placeholders are supported "
                             "(no filters, no {% ... %} blocks)")

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns the template reads, in order of first use."""
        return tuple(dict.fromkeys(_PLACEHOLDER.findall(self.template)))

    @property
    def is_single_column(self) -> bool:
        return _PLACEHOLDER.fullmatch(self.template.strip()) is not None

    def render(self, cell: Callable[[str], Any]) -> Any:
        """The value for one row; ``cell(column)`` reads that row's cell."""
        if self.is_single_column:
            return cell(self.columns[0])
        return _PLACEHOLDER.sub(lambda m: "" if (v := cell(m.group(1))) is None else str(v), self.template)

    def __str__(self) -> str:
        return f"TemplateValue({self.template!r})"


StrOrTemplate = Union[str, TemplateValue]


def as_value(spec: Any) -> Any:
    """A ``{"template": "..."}`` dict (a configuration read from JSON or YAML) as a ``TemplateValue``."""
    if isinstance(spec, Mapping) and set(spec) == {"template"}:
        return TemplateValue(spec["template"])
    return spec
