require "time"

history = context.fetch(:conversation_history, nil) || []
quick = []
previous = nil
history.each do |rec|
  next unless rec[:role] == "user" && rec[:timestamp]

  at = Time.iso8601(rec[:timestamp])
  quick << rec[:call_id] if previous && at - previous <= 10
  previous = at
end
quick
