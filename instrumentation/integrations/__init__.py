"""Integrations with real agent runtimes, each behind its own optional extra.

Every integration is a submodule imported on its own, so that importing this
package never pulls a runtime in:

* :mod:`recurscope.instrumentation.integrations.smolagents` — smolagents'
  ``CodeAgent`` and its managed agents (``pip install 'recurscope[smolagents]'``).

Importing an integration whose runtime is not installed raises
:class:`~recurscope.instrumentation.errors.MissingExtraError` naming the extra.
"""

from __future__ import annotations

__all__: list[str] = []
