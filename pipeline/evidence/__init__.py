"""The evidence stage: typed tables built from raw spans by the SQL in ``sql/``.

:mod:`.models` builds and audits them (``docs/evidence.md``).
"""

from __future__ import annotations

from .models import *  # noqa: F403
from .models import __all__ as __all__
