log = context[:conversation_history] || []
depth_of = log.map { |e| [e[:call_id], e[:depth]] }.to_h
bad = log.filter_map do |e|
  pid = e[:parent_call_id]
  next unless depth_of.key?(pid)
  "#{e[:call_id]} at depth #{e[:depth]}, parent #{pid} at #{depth_of[pid]}" if e[:depth] - depth_of[pid] != 1
end
([ "#{bad.size} record(s) with an unexpected depth" ] + bad).join("\n")
