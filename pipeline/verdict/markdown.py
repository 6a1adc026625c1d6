"""The verdict report as Markdown: one function per section, in reading order."""

from __future__ import annotations

from collections.abc import Mapping

from .document import (
    INTERVAL_NAMES,
    OUTCOME_LABELS,
    PRIMITIVE_LABELS,
    ClusterRow,
    CriterionRow,
    DepthRow,
    DetectorInfo,
    HistoryNeedsInfo,
    KnownError,
    Report,
)


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def _num(value: float | None, measure_share: bool) -> str:
    if value is None:
        return "–"
    return f"{value:.1%}" if measure_share else f"{value:.2f}"


def _interval_text(row: CriterionRow) -> str:
    share = row.name != "boundary_shifts_per_session"
    if row.lower is None or row.upper is None:
        return "–"
    return f"[{_num(row.lower, share)}, {_num(row.upper, share)}]"


def _detector_text(row: CriterionRow) -> str:
    if row.detector is None:
        return "–" if row.detector_note == "does not depend on detection" else row.detector_note
    return detector_summary(row.detector)


def detector_summary(info: DetectorInfo) -> str:
    """``P 1.00 [0.90, 1.00] · R 0.95 [0.83, 0.99] · n = 36`` (95% Clopper–Pearson)."""

    def one(name: str, value: float | None, lower: float | None, upper: float | None) -> str:
        if value is None:
            return f"{name} –"
        bounds = f" [{lower:.2f}, {upper:.2f}]" if lower is not None and upper is not None else ""
        return f"{name} {value:.2f}{bounds}"

    parts = [
        one("P", info.precision, info.precision_lower, info.precision_upper),
        one("R", info.recall, info.recall_lower, info.recall_upper),
    ]
    if info.support is not None:
        parts.append(f"n = {info.support}")
    return " · ".join(parts)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def excluded_note(excluded: Mapping[str, int]) -> str:
    """What a report on observed spans left out, and how to include it."""
    kinds = ", ".join(f"{n:,} {origin}" for origin, n in sorted(excluded.items()))
    addable = [origin for origin in excluded if origin != "replayed"]
    return (
        f"this store also holds {kinds} spans (`recurscope.origin`), left out of this "
        "verdict."
        + (
            " `--include-simulated` computes it with the simulated ones, as a demonstration."
            if addable
            else ""
        )
        + (
            " Replayed spans never count toward a verdict (each conversation is replayed "
            "once per strategy); `recurscope compare --by strategy` reads them."
            if "replayed" in excluded
            else ""
        )
    )


def render_markdown(report: Report) -> str:
    """The report as Markdown: one function per section, in reading order."""
    sections = (
        _md_header,
        _md_verdicts,
        _md_primary,
        _md_descriptive,
        _md_window,
        _md_clusters,
        _md_history_needs,
        _md_method,
    )
    return "\n".join(line for section in sections for line in section(report)) + "\n"


def _md_header(report: Report) -> list[str]:
    """The title, provenance, and the banners (amendment, origin, exploratory)."""
    pre = report.preregistration
    lines: list[str] = []
    title = "recurscope verdict"
    if report.scope.exploratory:
        title += " (exploratory view)"
    if report.scope.include_simulated and report.window.origin_note:
        title += " — including simulated spans (a demonstration)"
    lines += [f"# {title}", ""]
    scope = report.scope.description
    lines.append(
        f"Generated {report.generated_at} from {report.database or 'the evidence database'}; "
        f"scope: {scope}. Pre-registration `{pre.path}`, SHA-256 `{pre.sha256}`."
    )
    if pre.amendments:
        # The latest change up front; every amendment, with its rationale, under Method.
        latest = pre.amendments[-1]
        earlier = len(pre.amendments) - 1
        lines += [
            "",
            f"> **Amended pre-registration (version {pre.version}):** latest, "
            f"v{latest.version} ({(latest.registered_at or 'undated')[:10]}): "
            f"{_cell(latest.changes)}. "
            + (
                f"{earlier} earlier amendment{'s' if earlier != 1 else ''} "
                f"(v{pre.amendments[0].version}–v{pre.amendments[-2].version}) and every "
                "rationale under Method."
                if earlier
                else "Rationale under Method."
            ),
        ]
    if report.window.origin_note:
        lines += ["", f"> **Not observed evidence:** {report.window.origin_note}"]
    if report.scope.excluded_spans:
        lines += ["", f"> **Observed spans only:** {excluded_note(report.scope.excluded_spans)}"]
    if report.scope.exploratory:
        lines += [
            "",
            "> **Exploratory:** this view is filtered beyond the pre-registered window; "
            "only the pre-registered window gives the headline verdict.",
        ]
    return lines


def _md_verdicts(report: Report) -> list[str]:
    """One row per primitive: the verdict and why."""
    lines: list[str] = []
    lines += ["", "## Verdict", "", "| primitive | verdict | why |", "| --- | --- | --- |"]
    for verdict in report.verdicts:
        outcome = f"**{OUTCOME_LABELS.get(verdict.outcome, verdict.outcome)}**"
        if verdict.caveats:
            outcome += " ⚠ " + "; ".join(verdict.caveats)
        why = verdict.reason + (f" Plan: {verdict.plan}." if verdict.plan else "")
        lines.append(f"| {verdict.label} | {_cell(outcome)} | {_cell(why)} |")
    return lines


def _md_primary(report: Report) -> list[str]:
    """The pre-registered criteria with their Bonferroni intervals, then their definitions."""
    pre = report.preregistration
    lines: list[str] = []
    lines += [
        "",
        f"## Primary criteria ({pre.adjusted_confidence:.2%} intervals: Bonferroni, "
        f"alpha {pre.alpha:g} over m = {pre.comparisons})",
        "",
        "| criterion | primitive | estimate | interval | threshold | position | sessions "
        "| numerator / denominator | detector P/R |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    positions = {
        "above": "above threshold",
        "below": "below threshold",
        "straddles": "straddles",
        "no_data": "no data",
    }
    for row in report.primary:
        position = positions.get(row.side, row.side)
        if row.side == "straddles" and row.further_sessions:
            position += f" (~{row.further_sessions:,} more sessions)"
        lines.append(
            f"| `{row.name}` | {PRIMITIVE_LABELS.get(row.primitive, row.primitive)} "
            f"| {_pct(row.estimate)} | {_interval_text(row)} | {_pct(row.threshold)} "
            f"| {position} | {row.sessions:,} of {row.sessions_total:,} "
            f"| {row.numerator:,.0f} / {row.denominator:,.0f} | {_cell(_detector_text(row))} |"
        )
    lines += [""]
    for row in report.primary:
        lines.append(f"- `{row.name}`: {row.definition}")
    return lines


def _md_descriptive(report: Report) -> list[str]:
    """The descriptive measures (no decision)."""
    pre = report.preregistration
    lines: list[str] = []
    lines += [
        "",
        f"## Descriptive measures ({pre.descriptive_confidence:.0%} intervals, no decision)",
        "",
        "| measure | estimate | interval | sessions | numerator / denominator | detector P/R |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in report.descriptive:
        share = row.name != "boundary_shifts_per_session"
        lines.append(
            f"| `{row.name}` | {_num(row.estimate, share)} | {_interval_text(row)} "
            f"| {row.sessions:,} of {row.sessions_total:,} "
            f"| {row.numerator:,.0f} / {row.denominator:,.0f} | {_cell(_detector_text(row))} |"
        )
    return lines


def _md_window(report: Report) -> list[str]:
    """What the evidence covers, against the pre-registered gates."""
    lines: list[str] = []
    window = report.window
    lines += ["", "## Evidence window", ""]
    seeds = f"{window.seeds} (min {window.min_seeds})" if window.seeds else "not recorded"
    lines += [
        f"- sessions: {window.sessions:,} (min {window.min_sessions:,})",
        f"- distinct days: {window.days} (min {window.min_days})",
        f"- runs (`service.instance.id`): {window.runs} (min {window.min_runs})",
        f"- seeds (`recurscope.seed`): {seeds}",
        f"- spans: {window.spans:,}, first {window.first_span_at or '–'}, "
        f"last {window.last_span_at or '–'}",
        "- gates: " + ("met" if window.met else "**not met** — needs " + "; ".join(window.missing)),
    ]
    return lines


def known_error_text(known: KnownError | None, scheme: str, clustered: bool = True) -> str:
    """The clustering's measured error, in one Markdown sentence, for beside the clustered share."""
    if not clustered:
        return "Known error of the clustering: none (exact fingerprints, no clustering registered)."
    if known is None:
        return (
            "Known error of the clustering: **not measured** (sketch scheme "
            f"{scheme or '(unnamed)'} has no blind run in data/clone-families/blind-runs.toml)."
        )
    one = len(known.sets) == 1  # one set has no spread to show
    precision, recall = _pct(known.precision), _pct(known.recall)
    if not one and known.precision_low is not None and known.precision_high is not None:
        precision += f" ({_pct(known.precision_low)}–{_pct(known.precision_high)} by set)"
    spread = (
        "one set, so no spread by set"
        if one
        else f"{_pct(known.recall_low)}–{_pct(known.recall_high)} by set"
    )
    verdict = "meets the targets" if known.meets_targets else "**does not meet** the targets"
    runs = f"{len(known.sets)} blind run{'s' if not one else ''}"
    return (
        f"Known error of the clustering (its {runs}: {', '.join(known.sets)}; clone "
        "families written without seeing the clusterer, each run once): pairwise precision "
        f"{precision}, recall {recall} ({spread}; {known.correct_pairs:,} of "
        f"{known.predicted_pairs:,} merged pairs right, {known.correct_pairs:,} of "
        f"{known.true_pairs:,} same-family pairs found); it {verdict} "
        f"({known.target_precision:g} / {known.target_recall:g}). A wrong merge can only "
        "raise the clustered share, a missed pair only lower it toward the exact one."
    )


def _md_clusters(report: Report) -> list[str]:
    """Boilerplate exact vs clustered, the similarity sweep, the top clusters and examples."""
    pre = report.preregistration
    info = report.boilerplate
    lines: list[str] = ["", "## Code shapes: near-duplicate clusters", ""]
    if info is not None:
        if info.similarity is not None:
            lines.append(
                f"Shapes are exact code fingerprints; clusters group re-spelled shapes whose "
                f"content-free sketches are within similarity {info.similarity:g} of the "
                f"cluster's first shape ({info.linkage} linkage, LSH {info.band_count} x "
                f"{info.band_rows}"
                + (f"; sketch scheme {info.sketch_scheme}" if info.sketch_scheme else "")
                + "; pre-registered, see the amendments). Boilerplate = the "
                f"cluster recurs in >= {pre.min_other_sessions} other sessions."
            )
        lines += [
            "",
            f"- boilerplate_share, clustered (the verdict's): {_pct(info.clustered_share)}",
            f"- boilerplate_share_exact, exact fingerprints: {_pct(info.exact_share)}",
            "- "
            + known_error_text(info.known_error, info.sketch_scheme, info.similarity is not None),
        ]
        if info.sweep:
            lines += [
                "",
                "Sweep (each point re-clusters this scope from scratch; point estimates, "
                "not verdicts; the pre-registered similarity is fixed, not picked from here):",
                "",
                "| similarity | boilerplate share | boilerplate calls | clusters | boilerplate clusters |",
                "| --- | --- | --- | --- | --- |",
            ]
            for row in info.sweep:
                mark = (
                    "exact"
                    if row.similarity is None
                    else f"**{row.similarity:g}**"
                    if row.similarity == info.similarity
                    else f"{row.similarity:g}"
                )
                lines.append(
                    f"| {mark} | {_pct(row.share)} | {row.boilerplate_calls:,} of "
                    f"{row.reading_calls:,} | {row.clusters:,} | {row.boilerplate_clusters:,} |"
                )
    lines.append("")
    if not report.clusters:
        lines.append("No history-reading code was fingerprinted in this scope.")
        return lines
    lines += [
        "| cluster | shapes | sessions | calls | least similarity | boilerplate "
        "| ContextView-shaped calls | ops | first seen | last seen |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for cluster in report.clusters:
        similarity = "–" if cluster.min_similarity is None else f"{cluster.min_similarity:.2f}"
        lines.append(
            f"| `{cluster.fingerprint}` | {cluster.shapes:,} | {cluster.sessions:,} "
            f"| {cluster.calls:,} | {similarity} | {'yes' if cluster.is_boilerplate else 'no'} "
            f"| {cluster.contextview_shaped_calls:,} | {', '.join(cluster.example_ops)} "
            f"| {(cluster.first_seen or '–')[:16]} | {(cluster.last_seen or '–')[:16]} |"
        )
    # At most five examples, each code text once: clusters often share it.
    examples: list[ClusterRow] = []
    for cluster in report.clusters:
        texts = {e.example_code for e in examples}
        if cluster.example_code and cluster.example_code not in texts and len(examples) < 5:
            examples.append(cluster)
    if examples:
        lines += ["", "Examples (content capture was on for these calls):"]
        for cluster in examples:
            fence = "```"
            lines += [
                "",
                f"`{cluster.fingerprint}` (span `{cluster.example_span_id}`):",
                "",
                f"{fence}{cluster.example_language or ''}",
                (cluster.example_code or "").replace(fence, "` ` `"),
                fence,
            ]
    else:
        lines += ["", "No example code: content capture was off for these calls."]
    return lines


def _code(text: str) -> str:
    """A span-supplied name as inline code inside a table cell."""
    return _cell(f"`{text.replace('`', chr(39))}`")


def _quantity(value: float | None, unit: str) -> str:
    if value is None:
        return "–"
    if unit == "seconds":
        return f"{value / 60:,.1f} min" if value >= 600 else f"{value:,.1f} s"
    return f"{value:,.0f}"


def _md_history_needs(report: Report) -> list[str]:
    """The design record's open questions 1 and 2, answered from this scope (descriptive)."""
    return [] if report.history_needs is None else history_needs_markdown(report.history_needs)


def history_needs_markdown(info: HistoryNeedsInfo) -> list[str]:
    """The History needs section's lines (the report's, and the dashboard's copy)."""
    period = f"{info.first_day} to {info.last_day}" if info.first_day else "no dated calls"
    origins = ", ".join(info.origins) or "none"
    lines = [
        "",
        "## History needs: fields read and how far back (descriptive)",
        "",
        "Written to answer the design record's open questions 1 and 2. Descriptive "
        "measures: they decide no verdict. Sample: "
        f"{info.reading_calls:,} history-reading calls in this scope ({period}; origins: "
        f"{origins}).",
        "",
        "### 1. Which history fields does generated code read?",
        "",
    ]
    if not info.calls_with_fields:
        lines.append(
            "No history-reading call in this scope records the fields it reads "
            "(`recurscope.history.fields_read`: instrumentation or Recurgent ingest from "
            "this version on)."
        )
    else:
        lines += [
            f"Over the {info.calls_with_fields:,} history-reading calls whose fields static "
            f"analysis found ({info.sessions_with_fields:,} sessions), the share reading each "
            "field (V1 record fields and `outcome_summary` keys always listed):",
            "",
            "| field | V1 | calls reading it | share | sessions |",
            "| --- | --- | --- | --- | --- |",
        ]
        for row in info.fields:
            lines.append(
                f"| {_code(row.field)} | {'yes' if row.v1 else 'no'} | {row.calls:,} "
                f"| {_pct(row.share)} | {row.sessions:,} |"
            )
        never = ", ".join(f"`{name}`" for name in info.never_read) or "none"
        lines += ["", f"V1 fields and outcome keys never read here: {never}."]
        if info.by_group:
            lines += ["", "By role and prompt version (share of the group's calls):", ""]
            lines += ["| by | group | field | calls | share |", "| --- | --- | --- | --- | --- |"]
            for g in info.by_group:
                lines.append(
                    f"| {g.dimension} | {_code(g.group)} | {_code(g.field)} "
                    f"| {g.calls:,} of {g.group_calls:,} | {_pct(g.share)} |"
                )
    lines += ["", "### 2. How far back do the records code reads lie?", ""]
    known = info.depth_runtime + info.depth_static
    if not known:
        lines.append(
            "No history-reading call in this scope has a known read depth (the runtime "
            "view's `recurscope.history.read_depth`, or a literal bound in the code)."
        )
        return lines
    lines += [
        f"Depth known for {known:,} calls ({info.depth_runtime:,} from the runtime view, "
        f"{info.depth_static:,} from a literal bound in the code; {info.depth_unknown:,} "
        "unknown). Nearest-rank quantiles: p99 = N means 99% of reads fall within N.",
        "",
        "| measured in | calls | sessions | median | p90 | p99 | max |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for depth in info.depth:
        lines.append(
            f"| {depth.unit} | {depth.calls:,} | {depth.sessions:,} | "
            + " | ".join(
                _quantity(v, depth.unit) for v in (depth.median, depth.p90, depth.p99, depth.max)
            )
            + " |"
        )
    lines += ["", _bound_sentence(info.depth)]
    lines += [
        "",
        f"Reads that reached the oldest record held: {info.reached_oldest:,} of {known:,}. "
        f"Of those, {info.hit_eviction:,} came after the session's retention had evicted "
        f"records ({info.evicting_sessions:,} sessions evicted any): reads that may have "
        "wanted history that was gone.",
    ]
    if info.retention:
        lines += [
            "",
            "By retention policy (`recurscope.history.retention`):",
            "",
            "| retention | reading calls | sessions | depth p99 (records) | reached the oldest held "
            "| after evictions |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for policy in info.retention:
            lines.append(
                f"| {_code(policy.retention)} | {policy.calls:,} | {policy.sessions:,} "
                f"| {_quantity(policy.depth_p99, 'records')} | {policy.reached_oldest:,} "
                f"| {policy.hit_eviction:,} |"
            )
        lines.append("")
    if info.static_checked:
        lines.append(
            f"Where both are known ({info.static_checked:,} calls), the run read beyond the "
            f"code's literal bound in {info.static_exceeded:,}."
        )
    return lines


def _bound_sentence(rows: tuple[DepthRow, ...]) -> str:
    parts = [
        f"the last {_quantity(row.p99, row.unit)} {row.unit}"
        if row.unit != "seconds"
        else f"the last {_quantity(row.p99, row.unit)}"
        for row in rows
        if row.p99 is not None
    ]
    if not parts:
        return ""
    return "So 99% of reads fall within " + " / ".join(parts) + " (each over its own calls)."


def _md_method(report: Report) -> list[str]:
    """How the numbers were made: unit, intervals, rule, pre-registration, sampling."""
    pre = report.preregistration
    lines: list[str] = []
    lines += ["", "## Method", ""]
    integrity = "fixed before the window's first span"
    flags = []
    if pre.registered_after_start:
        flags.append(f"registered_at {pre.registered_at} is after the window's first span")
    if pre.modified_after_start:
        flags.append(f"the file was modified ({pre.modified_at}) after the window's first span")
    if flags:
        integrity = "**flagged**: " + "; ".join(flags)
    lines += [
        "- Unit of analysis: the session (`gen_ai.conversation.id`). Every estimate is a ratio "
        "of per-session sums (sum of numerators / sum of denominators), never a mean of "
        "per-session ratios and never an interval over calls.",
        f"- Intervals: session-level bootstrap, {pre.resamples:,} resamples of sessions with "
        f"replacement, seed {pre.seed}, {INTERVAL_NAMES.get(pre.interval, pre.interval)} "
        "intervals (coverage measured in docs/verdict.md).",
        f"- Multiple comparisons: Bonferroni over all {pre.comparisons} primary criteria of "
        f"both primitives (alpha {pre.alpha:g}, each interval at {pre.adjusted_confidence:.2%}).",
        f"- Decision rule: {pre.rule}",
        f"- Pre-registration: `{pre.path}`, SHA-256 `{pre.sha256}`, registered "
        f"{pre.registered_at or 'unknown'} (version {pre.version}), window first span "
        f"{pre.window_first_span_at or '–'}: {integrity}.",
        *(
            f"- **Amendment {a.version}** ({a.registered_at or 'undated'}): {a.changes}. "
            f"Why: {a.rationale}"
            for a in pre.amendments
        ),
        "- Further sessions for an undecided criterion assume the estimate holds and the "
        "interval narrows like 1/sqrt(n) (docs/verdict.md).",
    ]
    if report.sampling.notes:
        lines += [f"- Sampling: {note}" for note in report.sampling.notes]
    else:
        lines.append("- Sampling: no head-sampling markers or reported drops.")
    lines.append(
        f"- Detector quality: from `{report.detector_quality_source}`."
        if report.detector_quality_source
        else "- Detector quality: not measured (run `recurscope detector-eval --format json > "
        "data/detector-quality.json`)."
    )
    lines += [f"- Note: {note}" for note in report.notes]
    return lines
