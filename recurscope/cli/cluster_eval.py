"""``recurscope cluster-eval``: pairwise precision and recall of near-duplicate clusters."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from recurscope.cli._options import add_format_option, command
from recurscope.pipeline.errors import PreregistrationError
from recurscope.pipeline.evidence.cluster_eval import (
    FamiliesError,
    evaluate_families,
    format_markdown,
)
from recurscope.pipeline.evidence.clusters import ClusterSettings
from recurscope.pipeline.verdict.rule import default_preregistration_path, load_preregistration

DEFAULT_SETS = (
    "data/clone-families/dev",
    "data/clone-families/heldout",
    "data/clone-families/heldout-2",
    "data/clone-families/heldout-3",
    "data/clone-families/heldout-4",
    "data/clone-families/heldout-5",
    "data/clone-families/heldout-6",
    "data/clone-families/heldout-7",
    "data/clone-families/heldout-8",
    "data/clone-families/heldout-9",
    "data/clone-families/heldout-10",
    "data/clone-families/heldout-11",
    "data/clone-families/heldout-12",
    "data/clone-families/heldout-13",
    "data/clone-families/heldout-14",
    "data/clone-families/heldout-15",
    "data/clone-families/heldout-16",
    "data/clone-families/heldout-17",
    "data/clone-families/heldout-18",
    "data/clone-families/heldout-19",
    "data/clone-families/heldout-20",
    "data/clone-families/heldout-21",
    "data/clone-families/heldout-22",
    "data/clone-families/heldout-23",
    "data/clone-families/heldout-24",
)


@command("cluster-eval", errors=(FamiliesError, PreregistrationError))
def run_cluster_eval_command(args: argparse.Namespace) -> int:
    """The ``cluster-eval`` command: 0 with a report, 1 when a folder cannot be read."""
    folders = args.families or [f for f in DEFAULT_SETS if Path(f, "families.json").exists()]
    if not folders:
        raise FamiliesError(
            "no families folder given and none here (data/clone-families/dev, .../heldout, "
            ".../heldout-2 to .../heldout-24): "
            "pass --families DIR"
        )
    prereg = load_preregistration(args.preregistration or default_preregistration_path())
    settings = prereg.clusters or ClusterSettings()
    if args.similarity is not None:
        settings = ClusterSettings(args.similarity, settings.band_rows, settings.band_count)
    results = [evaluate_families(folder, settings) for folder in folders]
    if args.format == "json":
        sys.stdout.write(json.dumps([r.to_dict() for r in results], indent=1) + "\n")
    else:
        sys.stdout.write(format_markdown(results))
    return 0


def _similarity(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be in (0, 1], got {text}")
    return value


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``cluster-eval``."""
    parser = subparsers.add_parser(
        "cluster-eval",
        help="score near-duplicate code clusters against labelled clone families",
        description=(
            "Sketch every program of a labelled clone-families folder, cluster the "
            "sketches with the evidence SQL at the pre-registered similarity, and "
            "report pairwise precision and recall, cluster purity, hard negatives "
            "merged, and a sweep over similarity 0.5-0.9."
        ),
        epilog="Example: recurscope cluster-eval --families data/clone-families/heldout",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--families",
        metavar="DIR",
        action="append",
        help="folder holding families.json (repeatable; default: data/clone-families/dev "
        "and .../heldout, .../heldout-2 to .../heldout-24 when present)",
    )
    parser.add_argument(
        "--similarity",
        type=_similarity,
        default=None,
        help="cluster at this similarity instead of the pre-registered one",
    )
    parser.add_argument(
        "--preregistration", metavar="FILE", default=None, help="pre-registration file"
    )
    add_format_option(parser, ("md", "json"), "md")
    parser.set_defaults(func=run_cluster_eval_command)
