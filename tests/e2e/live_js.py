"""The note text of js/src/live.js, read from the source, for the browser tests."""

import re
from pathlib import Path

NOTE = re.search(r'export const NOTE = "([^"]+)";',
                 (Path(__file__).resolve().parents[2] / "js" / "src" / "live.js").read_text()).group(1)
