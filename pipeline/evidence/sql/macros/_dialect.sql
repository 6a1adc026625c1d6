-- Engine-specific helpers: the only DuckDB-specific SQL the evidence models use.
--
-- The models read raw span attributes through these macros, so running the
-- same SQL on another engine that keeps the exporter's table (ClickHouse:
-- `SpanAttributes['k']`, `JSONExtract(...)`, `toUnixTimestamp64Nano(...)`)
-- means rewriting this file, not the models. Beyond these, the models use
-- plain CTEs, joins, window functions, one recursive CTE (`delegations`) and
-- `unnest` over a list column (`history_access`).
--
-- TEMP macros: they live in the connection, not in the database file, so a
-- read-only reader can define them and no other tool sees recurscope objects
-- it cannot run.

-- Attribute text; an empty string counts as absent (the exporter writes '' for
-- an empty value and ids like parent_call_id are '' on roots).
CREATE OR REPLACE TEMP MACRO attr_str(attrs, attr_key) AS nullif(attrs[attr_key], '');

-- Attribute as an integer; NULL when absent or not a number (never an error:
-- one bad span must not fail the whole refresh).
CREATE OR REPLACE TEMP MACRO attr_int(attrs, attr_key) AS TRY_CAST(attrs[attr_key] AS BIGINT);

CREATE OR REPLACE TEMP MACRO attr_float(attrs, attr_key) AS TRY_CAST(attrs[attr_key] AS DOUBLE);

-- The exporter writes bools as `true`/`false`; anything else is unknown (NULL).
CREATE OR REPLACE TEMP MACRO attr_bool(attrs, attr_key) AS
    CASE lower(attrs[attr_key]) WHEN 'true' THEN TRUE WHEN 'false' THEN FALSE END;

-- A string-array attribute (JSON text like ["filter","map"]) as a list of text.
-- A bare string (some SDKs flatten one-element arrays) becomes a one-element
-- list; malformed JSON becomes NULL rather than an error.
CREATE OR REPLACE TEMP MACRO attr_list(attrs, attr_key) AS
    CASE
        WHEN nullif(attrs[attr_key], '') IS NULL THEN NULL
        WHEN left(ltrim(attrs[attr_key]), 1) = '[' THEN
            CASE WHEN json_valid(attrs[attr_key])
                 THEN TRY_CAST(from_json(attrs[attr_key], '["VARCHAR"]') AS VARCHAR[]) END
        ELSE [attrs[attr_key]]
    END;

-- Nanoseconds since the epoch of a TIMESTAMP_NS (span end = this + Duration).
CREATE OR REPLACE TEMP MACRO ts_epoch_ns(ts) AS epoch_ns(ts);

-- The UTC calendar day a TIMESTAMP_NS falls on. `cast(ts as date)` rounds
-- the nanoseconds to microseconds first, which puts the last 500 ns of a day
-- on the next day; whole days of nanoseconds, floored, do not.
CREATE OR REPLACE TEMP MACRO span_day(ts) AS
    DATE '1970-01-01' + CAST(
        (epoch_ns(ts) - (epoch_ns(ts) % 86400000000000 + 86400000000000) % 86400000000000)
            // 86400000000000 AS INTEGER);

-- A span id's contribution to a per-session checksum. Sums of these tell a
-- refresh whether a session's spans changed, not just how many there are
-- (a deleted span and a late one would leave the count alone). Reduced
-- modulo a prime below 2^32 so sums stay exact in a BIGINT.
CREATE OR REPLACE TEMP MACRO span_checksum(span_id) AS
    CAST(hash(span_id) % 4294967291 AS BIGINT);

-- Whether two lists share an element (ContextView-shaped ops).
CREATE OR REPLACE TEMP MACRO lists_overlap(items, candidates) AS list_has_any(items, candidates);

-- Head sampling a span went through, from the markers SDKs and collectors
-- leave: the resource's `sampling.probability` / `otel.sampling.probability`
-- or the span's `recurscope.sampling.probability`, and OTel consistent probability sampling's `th:`
-- threshold in the W3C tracestate (`ot=th:...`).
CREATE OR REPLACE TEMP MACRO sampling_probability(resource_attrs, span_attrs) AS
    least(
        TRY_CAST(resource_attrs['sampling.probability'] AS DOUBLE),
        TRY_CAST(resource_attrs['otel.sampling.probability'] AS DOUBLE),
        TRY_CAST(span_attrs['sampling.probability'] AS DOUBLE),
        TRY_CAST(span_attrs['recurscope.sampling.probability'] AS DOUBLE)
    );

CREATE OR REPLACE TEMP MACRO sampling_marked(resource_attrs, span_attrs, trace_state) AS
    coalesce(
        resource_attrs['sampling.probability'] IS NOT NULL
        OR resource_attrs['otel.sampling.probability'] IS NOT NULL
        OR span_attrs['sampling.probability'] IS NOT NULL
        OR span_attrs['recurscope.sampling.probability'] IS NOT NULL
        OR trace_state LIKE '%th:%',
        FALSE
    );

-- Code sketches (`recurscope.code.sketch`): 64 MinHash values as 8 hex digits
-- each, the answers' part, and for a behavioural sketch whose answers some
-- probe edit changes, 64 more, its footprint (scheme v5). A sketch is usable
-- only when it is exactly that (a hostile span can carry anything); the share
-- of equal words is datasketch's Jaccard estimate; bands are `rows`
-- consecutive words (LSH candidates), those of the footprint numbered after
-- the answers'.
CREATE OR REPLACE TEMP MACRO valid_sketch(sketch) AS
    coalesce(
        length(sketch) IN (512, 1024) AND regexp_full_match(sketch, '[0-9a-f]+'), FALSE
    );

-- The share of equal words among the first 64. Spelled out word by word: a
-- lambda over range(64) costs ~6x more per pair, and scoring pairs is nearly
-- all of clustering's time (docs/benchmarks.md).
CREATE OR REPLACE TEMP MACRO sketch_share(a, b) AS
    (
        (substr(a, 1, 8) = substr(b, 1, 8))::INTEGER
        + (substr(a, 9, 8) = substr(b, 9, 8))::INTEGER
        + (substr(a, 17, 8) = substr(b, 17, 8))::INTEGER
        + (substr(a, 25, 8) = substr(b, 25, 8))::INTEGER
        + (substr(a, 33, 8) = substr(b, 33, 8))::INTEGER
        + (substr(a, 41, 8) = substr(b, 41, 8))::INTEGER
        + (substr(a, 49, 8) = substr(b, 49, 8))::INTEGER
        + (substr(a, 57, 8) = substr(b, 57, 8))::INTEGER
        + (substr(a, 65, 8) = substr(b, 65, 8))::INTEGER
        + (substr(a, 73, 8) = substr(b, 73, 8))::INTEGER
        + (substr(a, 81, 8) = substr(b, 81, 8))::INTEGER
        + (substr(a, 89, 8) = substr(b, 89, 8))::INTEGER
        + (substr(a, 97, 8) = substr(b, 97, 8))::INTEGER
        + (substr(a, 105, 8) = substr(b, 105, 8))::INTEGER
        + (substr(a, 113, 8) = substr(b, 113, 8))::INTEGER
        + (substr(a, 121, 8) = substr(b, 121, 8))::INTEGER
        + (substr(a, 129, 8) = substr(b, 129, 8))::INTEGER
        + (substr(a, 137, 8) = substr(b, 137, 8))::INTEGER
        + (substr(a, 145, 8) = substr(b, 145, 8))::INTEGER
        + (substr(a, 153, 8) = substr(b, 153, 8))::INTEGER
        + (substr(a, 161, 8) = substr(b, 161, 8))::INTEGER
        + (substr(a, 169, 8) = substr(b, 169, 8))::INTEGER
        + (substr(a, 177, 8) = substr(b, 177, 8))::INTEGER
        + (substr(a, 185, 8) = substr(b, 185, 8))::INTEGER
        + (substr(a, 193, 8) = substr(b, 193, 8))::INTEGER
        + (substr(a, 201, 8) = substr(b, 201, 8))::INTEGER
        + (substr(a, 209, 8) = substr(b, 209, 8))::INTEGER
        + (substr(a, 217, 8) = substr(b, 217, 8))::INTEGER
        + (substr(a, 225, 8) = substr(b, 225, 8))::INTEGER
        + (substr(a, 233, 8) = substr(b, 233, 8))::INTEGER
        + (substr(a, 241, 8) = substr(b, 241, 8))::INTEGER
        + (substr(a, 249, 8) = substr(b, 249, 8))::INTEGER
        + (substr(a, 257, 8) = substr(b, 257, 8))::INTEGER
        + (substr(a, 265, 8) = substr(b, 265, 8))::INTEGER
        + (substr(a, 273, 8) = substr(b, 273, 8))::INTEGER
        + (substr(a, 281, 8) = substr(b, 281, 8))::INTEGER
        + (substr(a, 289, 8) = substr(b, 289, 8))::INTEGER
        + (substr(a, 297, 8) = substr(b, 297, 8))::INTEGER
        + (substr(a, 305, 8) = substr(b, 305, 8))::INTEGER
        + (substr(a, 313, 8) = substr(b, 313, 8))::INTEGER
        + (substr(a, 321, 8) = substr(b, 321, 8))::INTEGER
        + (substr(a, 329, 8) = substr(b, 329, 8))::INTEGER
        + (substr(a, 337, 8) = substr(b, 337, 8))::INTEGER
        + (substr(a, 345, 8) = substr(b, 345, 8))::INTEGER
        + (substr(a, 353, 8) = substr(b, 353, 8))::INTEGER
        + (substr(a, 361, 8) = substr(b, 361, 8))::INTEGER
        + (substr(a, 369, 8) = substr(b, 369, 8))::INTEGER
        + (substr(a, 377, 8) = substr(b, 377, 8))::INTEGER
        + (substr(a, 385, 8) = substr(b, 385, 8))::INTEGER
        + (substr(a, 393, 8) = substr(b, 393, 8))::INTEGER
        + (substr(a, 401, 8) = substr(b, 401, 8))::INTEGER
        + (substr(a, 409, 8) = substr(b, 409, 8))::INTEGER
        + (substr(a, 417, 8) = substr(b, 417, 8))::INTEGER
        + (substr(a, 425, 8) = substr(b, 425, 8))::INTEGER
        + (substr(a, 433, 8) = substr(b, 433, 8))::INTEGER
        + (substr(a, 441, 8) = substr(b, 441, 8))::INTEGER
        + (substr(a, 449, 8) = substr(b, 449, 8))::INTEGER
        + (substr(a, 457, 8) = substr(b, 457, 8))::INTEGER
        + (substr(a, 465, 8) = substr(b, 465, 8))::INTEGER
        + (substr(a, 473, 8) = substr(b, 473, 8))::INTEGER
        + (substr(a, 481, 8) = substr(b, 481, 8))::INTEGER
        + (substr(a, 489, 8) = substr(b, 489, 8))::INTEGER
        + (substr(a, 497, 8) = substr(b, 497, 8))::INTEGER
        + (substr(a, 505, 8) = substr(b, 505, 8))::INTEGER
    ) / 64.0;

-- The similarity (`_sketch.similarity`, the same rule): the answers' share,
-- unless both sketches have footprints that agree at least 0.95 and answers
-- that share at least 0.1 — then the footprints' share (pre-registration
-- version 21, `[boilerplate] footprint_similarity` and `footprint_floor`).
CREATE OR REPLACE TEMP MACRO sketch_similarity(a, b) AS
    CASE
        WHEN length(a) = 1024 AND length(b) = 1024
            AND sketch_share(a, b) >= 0.1
            AND sketch_share(substr(a, 513), substr(b, 513)) >= 0.95
        THEN greatest(sketch_share(a, b), sketch_share(substr(a, 513), substr(b, 513)))
        ELSE sketch_share(a, b)
    END;

-- Band `band_no` of `band_count` bands of `band_rows` words of the answers'
-- part, then as many of the footprint's (empty when there is none).
CREATE OR REPLACE TEMP MACRO sketch_band(sketch, band_no, band_rows, band_count) AS
    CASE
        WHEN band_no < band_count THEN substr(sketch, 8 * band_rows * band_no + 1, 8 * band_rows)
        ELSE substr(sketch, 513 + 8 * band_rows * (band_no - band_count), 8 * band_rows)
    END;

-- The band numbers of a sketch with a footprint: `band_count` of each part (a
-- sketch without one has empty bands past its answers', which never match).
CREATE OR REPLACE TEMP MACRO sketch_band_numbers(band_count) AS TABLE
    SELECT range AS band_no FROM range(2 * band_count);
