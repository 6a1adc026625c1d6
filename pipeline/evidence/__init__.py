"""The evidence stage: typed tables built from raw spans by the SQL in ``sql/``.

:mod:`.models` builds and audits them (``docs/evidence.md``); :mod:`.views`
reads them filtered, for reports and comparisons; :mod:`.inspect` lists
sessions and quarantine records.
"""

from __future__ import annotations

from .models import *  # noqa: F403
from .models import __all__ as _models_all
from .views import *  # noqa: F403
from .views import __all__ as _views_all

__all__ = [*_models_all, *_views_all]
