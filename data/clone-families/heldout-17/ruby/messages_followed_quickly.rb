require "time"

history = context.fetch(:conversation_history, nil) || []
quick = []
previous = nil
history.each do |rec|
  next unless rec[:role] == "user" && rec[:timestamp]

  at = Time.iso8601(rec[:timestamp])
  quick << previous[:call_id] if previous && at - Time.iso8601(previous[:timestamp]) <= 10
  previous = rec
end
quick
