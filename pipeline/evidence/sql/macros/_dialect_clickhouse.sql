-- Engine-specific helpers for ClickHouse: the same names as `_dialect.sql`
-- (DuckDB), defined as SQL user-defined functions, so the models run unchanged.
--
-- This file and `pipeline/evidence/clickhouse.py` are all the ClickHouse-only
-- SQL there is (docs/scale-out.md). Three kinds of definitions:
--
-- 1. The dialect proper: reading the exporter's attribute maps. A missing map
--    key reads as '' on ClickHouse (NULL on DuckDB), so presence is
--    `mapContains`, never `IS NOT NULL`.
-- 2. DuckDB spellings the models use that ClickHouse lacks (`len`,
--    `isfinite`, `split_part`): defined here rather than changing the models.
--    A name ClickHouse already has (it gained `unnest` in 2025) is skipped by
--    the installer, which reads `system.functions` first.
-- 3. Nothing else: joins, window functions, CTEs (also the recursive one in
--    `delegations`) and `VALUES` CTEs run as written, given the settings the
--    engine sends with every statement (`join_use_nulls=1`,
--    `cast_keep_nullable=1`, `session_timezone='UTC'`; clickhouse.py says why).
--
-- Functions are server-wide objects on ClickHouse (not per connection like
-- DuckDB's TEMP macros): installing them needs the CREATE FUNCTION grant, and
-- `CREATE OR REPLACE` keeps a second recurscope version from failing on them.

-- Attribute text; an empty string counts as absent.
CREATE OR REPLACE FUNCTION attr_str AS (attrs, attr_key) -> nullIf(attrs[attr_key], '');

-- Attribute as an integer; NULL when absent or not a whole number.
CREATE OR REPLACE FUNCTION attr_int AS (attrs, attr_key) -> toInt64OrNull(attrs[attr_key]);

CREATE OR REPLACE FUNCTION attr_float AS (attrs, attr_key) -> toFloat64OrNull(attrs[attr_key]);

-- `true`/`false`; anything else is unknown (NULL).
CREATE OR REPLACE FUNCTION attr_bool AS (attrs, attr_key) ->
    multiIf(lower(attrs[attr_key]) = 'true', CAST(true AS Nullable(Bool)),
            lower(attrs[attr_key]) = 'false', CAST(false AS Nullable(Bool)),
            CAST(NULL AS Nullable(Bool)));

-- A string-array attribute as Array(String). ClickHouse arrays cannot be
-- NULL: an absent or malformed attribute is [] here where DuckDB has NULL
-- (the models coalesce every list they count to [] anyway; only
-- `calls.reported_ops` shows the difference).
CREATE OR REPLACE FUNCTION attr_list AS (attrs, attr_key) ->
    if(attrs[attr_key] = '', CAST([] AS Array(String)),
       if(startsWith(trimLeft(attrs[attr_key]), '['),
          if(isValidJSON(attrs[attr_key]),
             arrayMap(x -> if(startsWith(x, '"'), JSONExtractString(x), x),
                      JSONExtractArrayRaw(attrs[attr_key])),
             CAST([] AS Array(String))),
          [attrs[attr_key]]));

CREATE OR REPLACE FUNCTION ts_epoch_ns AS (ts) -> toUnixTimestamp64Nano(ts);

-- The UTC calendar day of a DateTime64(9) (session_timezone is UTC).
CREATE OR REPLACE FUNCTION span_day AS (ts) -> toDate(ts);

-- Per-engine checksum: compared only with sums the same engine made.
CREATE OR REPLACE FUNCTION span_checksum AS (span_id) ->
    toInt64(cityHash64(span_id) % 4294967291);

CREATE OR REPLACE FUNCTION lists_overlap AS (items, candidates) -> hasAny(items, candidates);

-- least() skips NULLs on ClickHouse >= 24.12 as on DuckDB; NULL when all are.
CREATE OR REPLACE FUNCTION sampling_probability AS (resource_attrs, span_attrs) ->
    least(
        toFloat64OrNull(resource_attrs['sampling.probability']),
        toFloat64OrNull(resource_attrs['otel.sampling.probability']),
        toFloat64OrNull(span_attrs['sampling.probability']),
        toFloat64OrNull(span_attrs['recurscope.sampling.probability'])
    );

CREATE OR REPLACE FUNCTION sampling_marked AS (resource_attrs, span_attrs, trace_state) ->
    mapContains(resource_attrs, 'sampling.probability')
    OR mapContains(resource_attrs, 'otel.sampling.probability')
    OR mapContains(span_attrs, 'sampling.probability')
    OR mapContains(span_attrs, 'recurscope.sampling.probability')
    OR trace_state LIKE '%th:%';

CREATE OR REPLACE FUNCTION valid_sketch AS (sketch) ->
    coalesce(length(sketch) IN (512, 1024) AND match(sketch, '^[0-9a-f]+$'), false);

CREATE OR REPLACE FUNCTION sketch_share AS (a, b, start) ->
    arraySum(arrayMap(i -> substring(a, start + 8 * i + 1, 8) = substring(b, start + 8 * i + 1, 8),
                      range(64))) / 64.0;

CREATE OR REPLACE FUNCTION sketch_similarity AS (a, b) ->
    if(length(a) = 1024 AND length(b) = 1024
           AND sketch_share(a, b, 0) >= 0.1 AND sketch_share(a, b, 512) >= 0.95,
       greatest(sketch_share(a, b, 0), sketch_share(a, b, 512)),
       sketch_share(a, b, 0));

CREATE OR REPLACE FUNCTION sketch_band AS (sketch, band_no, band_rows, band_count) ->
    if(band_no < band_count,
       substring(sketch, 8 * band_rows * band_no + 1, 8 * band_rows),
       substring(sketch, 513 + 8 * band_rows * (band_no - band_count), 8 * band_rows));

-- DuckDB spellings used by the models.
CREATE OR REPLACE FUNCTION len AS (items) -> length(items);

CREATE OR REPLACE FUNCTION isfinite AS (x) -> isFinite(x);

CREATE OR REPLACE FUNCTION split_part AS (text, separator, part) ->
    splitByString(separator, text)[part];
