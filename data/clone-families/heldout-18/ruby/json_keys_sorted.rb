require "json"

def json_object(text)
  value = JSON.parse(text)
  value.is_a?(Hash) ? value : nil
rescue JSON::ParserError
  nil
end

history = context.fetch(:conversation_history, nil) || []
counts = {}
history.each do |entry|
  next if entry[:role] != "tool" || !entry[:content].is_a?(String)

  obj = json_object(entry[:content])
  obj&.each_key { |k| counts[k] = counts.fetch(k, 0) + 1 }
end
counts.sort_by { |k, n| [-n, k] }
