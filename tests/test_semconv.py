"""The conventions module, the registry and docs/semconv.md must agree."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from recurscope.instrumentation import semconv

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def meta():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "semconv_meta", ROOT / "tools" / "semconv_meta.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["semconv_meta"] = module
    spec.loader.exec_module(module)
    return module


def test_registry_matches_module(meta) -> None:  # type: ignore[no-untyped-def]
    """The shipped registry is exactly what the module (plus the metadata table) generates."""
    shipped = json.loads((ROOT / "instrumentation" / "semconv_registry.json").read_text())
    assert shipped == meta.build_registry(), "run: python tools/semconv_meta.py"


def test_doc_tables_match_registry(meta) -> None:  # type: ignore[no-untyped-def]
    """docs/semconv.md carries the generated table of every span, unchanged."""
    doc = (ROOT / "docs" / "semconv.md").read_text()
    assert meta.render_doc(doc, meta.build_registry()) == doc, "run: python tools/semconv_meta.py"


def test_every_constant_has_a_docstring_and_metadata(meta) -> None:  # type: ignore[no-untyped-def]
    """No attribute constant lacks a one-line docstring or its type/unit/example row."""
    for constant, value, doc in meta.module_constants():
        assert doc and "\n" not in doc.strip(), f"{constant} needs a one-line docstring"
        if constant.startswith("SPAN_") or constant in ("SEMCONV_VERSION", "INSTRUMENTATION_SCOPE"):
            continue
        assert value in meta.META, f"{value} lacks a row in tools/semconv_meta.py"
    names = {value for _, value, _ in meta.module_constants()}
    assert set(meta.META) <= names, f"stale metadata rows: {set(meta.META) - names}"


# OpenInference names reused so Phoenix-like backends classify and display our spans.
OPENINFERENCE_NAMES = frozenset(
    {
        "openinference.span.kind",
        "input.value",
        "input.mime_type",
        "output.value",
        "output.mime_type",
    }
)


def test_names_follow_the_namespaces() -> None:
    """Attributes are GenAI/resource names reused, a few OpenInference names, or live under recurscope.*."""
    for name in dir(semconv):
        value = getattr(semconv, name)
        if name.isupper() and isinstance(value, str) and "." in value and name != "SEMCONV_VERSION":
            if value in OPENINFERENCE_NAMES:
                continue
            assert value.startswith(("recurscope.", "gen_ai.", "service.")), value


def test_openinference_names_are_only_the_listed_few() -> None:
    """Every OpenInference name the module reuses is one the namespace test allows, and vice versa."""
    reused = {
        value
        for name, value in vars(semconv).items()
        if name.isupper()
        and isinstance(value, str)
        and value.startswith(("openinference.", "input.", "output."))
    }
    assert reused == OPENINFERENCE_NAMES


def test_registry_types_are_otel_types() -> None:
    """Every registry type is one an OTLP attribute can carry."""
    registry = json.loads((ROOT / "instrumentation" / "semconv_registry.json").read_text())
    for attribute in registry["attributes"]:
        assert attribute["type"] in {"string", "int", "double", "boolean", "string[]"}
        assert attribute["content"] == (attribute["requirement"] == "opt-in")
    assert registry["version"] == semconv.SEMCONV_VERSION
