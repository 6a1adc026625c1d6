require "time"

history = Array(context[:conversation_history])
parents = {}
history.each { |step| parents[step[:call_id]] = step if step[:call_id] }
problems = []
history.each do |step|
  up = parents[step[:parent_call_id]]
  next if up.nil?
  next unless step[:timestamp] && up[:timestamp]

  child_at = Time.parse(step[:timestamp])
  parent_at = Time.parse(up[:timestamp])
  problems << "#{step[:call_id]} is stamped #{(parent_at - child_at).round}s before its parent #{up[:call_id]}" if child_at < parent_at
end
problems.empty? ? "All child records are stamped at or after their parents." : problems.join("\n")
