"""The versioned prompt files shipped in ``ragwidgets/judges/prompts/`` and how they are filled."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from string import Template
from typing import Optional

USER_MARKER = "=== user ==="
INSTRUCTIONS_HEADER = "Additional instructions from the user:"


@dataclass(frozen=True)
class Prompt:
    """A system prompt and a user-message template (``$name`` placeholders) read from one file."""

    name: str
    system: str
    user: str

    @property
    def version(self) -> str:
        """The file name plus a hash of its text, so an edited prompt never reuses old answers."""
        digest = hashlib.sha256((self.system + USER_MARKER + self.user).encode("utf-8")).hexdigest()
        return f"{self.name}-{digest[:12]}"

    def messages(self, instructions: Optional[str] = None, **values: str) -> list[dict[str, str]]:
        """Chat messages: the system prompt (with the user's ``instructions`` appended) and the user turn."""
        system = self.system
        if instructions and instructions.strip():
            system = f"{system}\n\n{INSTRUCTIONS_HEADER}\n{instructions.strip()}"
        return [
            {"role": "system", "content": system},
            {"role": "user", "content": Template(self.user).substitute(values)},
        ]


@lru_cache(maxsize=None)
def load_prompt(name: str) -> Prompt:
    """Read ``prompts/<name>.txt`` (for example ``"check_v1"``)."""
    text = files("ragwidgets.judges").joinpath("prompts").joinpath(f"{name}.txt").read_text(encoding="utf-8")
    if USER_MARKER not in text:
        raise ValueError(f"prompt file {name}.txt has no '{USER_MARKER}' line")
    system, user = text.split(USER_MARKER, 1)
    return Prompt(name=name, system=system.strip(), user=user.strip("\n"))


def numbered(lines: list[str]) -> str:
    """``1. first\\n2. second``: how claims are listed in a prompt."""
    return "\n".join(f"{i}. {line}" for i, line in enumerate(lines, start=1))
