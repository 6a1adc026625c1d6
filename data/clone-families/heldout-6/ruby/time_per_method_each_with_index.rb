require "time"

calls = context[:conversation_history] || []
totals = {}
calls.each_with_index do |call, i|
  nxt = calls[i + 1]
  break if nxt.nil?
  name = call[:method_name]
  next if name.nil?
  totals[name] = (totals[name] || 0) + (Time.iso8601(nxt[:timestamp]) - Time.iso8601(call[:timestamp])).to_i
end
totals.sort_by { |name, secs| [-secs, name] }.map { |name, secs| { method: name, seconds: secs } }
