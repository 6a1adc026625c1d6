recs = context[:conversation_history] || []

i = 0
collected = {}
while i < recs.size
  r = recs[i]
  collected[r[:need]] = true if !r.dig(:outcome_summary, :ok) && r[:need] && r[:need] != ""
  i += 1
end

Agent::Outcome.ok(collected.keys)
