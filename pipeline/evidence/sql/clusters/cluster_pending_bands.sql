-- cluster_pending_bands: the LSH bands of every pending sketch.
--
-- Grain: one row per (pending sketch, band). Two sketches sharing a band are
-- candidates for the similarity check; with `$band_count` bands of
-- `$band_rows` words, a pair of similarity s is a candidate with probability
-- 1 - (1 - s^rows)^bands (docs/detector.md, "Clusters"); a sketch with a
-- footprint has as many bands again from it, a sketch without one none there.
select
    pending.fingerprint,
    pending.language,
    bands.band_no,
    sketch_band(pending.sketch, bands.band_no, $band_rows, $band_count) as band
from cluster_pending as pending
cross join sketch_band_numbers($band_count) as bands
where sketch_band(pending.sketch, bands.band_no, $band_rows, $band_count) <> ''
