"""The verdict stage: intervals, the pre-registered decision, reports and comparisons.

- :mod:`.stats` — bootstrap and exact intervals;
- :mod:`.rule` — the pre-registration and the decision (``docs/verdict.md``);
- :mod:`.headline` — the headline intervals stored with the evidence;
- :mod:`.report` and :mod:`.compare` — ``recurscope report`` and ``recurscope compare``.
"""

from __future__ import annotations

from .rule import *  # noqa: F403
from .rule import __all__ as __all__
