"""The packages an extra installs, imported where a feature needs one: a missing one is a
:class:`RagWidgetsError` in one line naming the extra."""

from __future__ import annotations

from .errors import RagWidgetsError


def vl_convert():
    """The ``vl_convert`` module: Vega's renderer, for charts drawn outside the browser."""
    try:
        import vl_convert
    except ImportError:
        raise RagWidgetsError("drawing charts outside the browser (a static HTML report, an exported notebook) "
                              'needs vl-convert-python: pip install "ragwidgets[export]"') from None
    return vl_convert
