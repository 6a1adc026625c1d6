-- audit: every call, trim and boundary shift belongs to a session.
-- Returns evidence rows without `gen_ai.conversation.id`; must return none.
-- Such rows are invisible to every session-level estimate.
select 'calls' as source_table, trace_id, span_id from calls where session_id is null
union all
select 'trims', trace_id, span_id from trims where session_id is null
union all
select 'boundary_shifts', trace_id, span_id from boundary_shifts where session_id is null
