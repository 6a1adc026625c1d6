entries = context[:conversation_history] || []
status_of = entries.each_with_object({}) { |e, h| h[e[:call_id]] = e[:outcome_summary] && e[:outcome_summary][:ok] }
ids = []
entries.each do |e|
  mine = status_of[e[:call_id]]
  theirs = status_of.fetch(e[:parent_call_id], true)
  ids << e[:call_id] if mine == false && theirs == false
end
Agent::Outcome.ok(ids)
