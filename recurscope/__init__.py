"""recurscope: evidence on how agent runtimes use and lose conversation history.

Import the parts: ``recurscope.instrumentation`` (light, for runtimes),
``recurscope.pipeline`` (ingest, DuckDB, verdict; extra ``[pipeline]``) and
``recurscope.dashboards`` (Streamlit; extra ``[dashboards]``).
"""

from __future__ import annotations

__version__ = "0.1.0"
