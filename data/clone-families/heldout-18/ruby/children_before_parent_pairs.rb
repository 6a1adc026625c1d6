require "time"

log = context.fetch(:conversation_history, nil) || []
index = log.each_with_object({}) { |e, h| h[e[:call_id]] = e unless e[:call_id].nil? }
rows = log.filter_map do |child|
  parent = index[child[:parent_call_id]]
  next if parent.nil? || child[:timestamp].nil? || parent[:timestamp].nil?

  lead = Time.iso8601(parent[:timestamp]) - Time.iso8601(child[:timestamp])
  { child: child[:call_id], parent: parent[:call_id], seconds_before_parent: lead.round(3) } if lead.positive?
end
Agent::Outcome.ok(rows)
