require "set"

records = context.fetch(:conversation_history, nil) || []
result = records.each_with_object({}) do |r, acc|
  next if r[:role] != "assistant" || !r[:content].is_a?(String)

  set = Set.new
  r[:content].scan(/`([^`\n]+)`/) { |(code)| set << code }
  acc[r[:call_id]] = set.to_a.sort unless set.empty?
end
result
