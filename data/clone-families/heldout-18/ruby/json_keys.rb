require "json"

history = context[:conversation_history] || []
key_counts = Hash.new(0)
history.each do |record|
  next unless record[:role] == "tool" && record[:content].is_a?(String)

  begin
    parsed = JSON.parse(record[:content])
  rescue JSON::ParserError
    next
  end
  next unless parsed.is_a?(Hash)

  parsed.each_key { |key| key_counts[key] += 1 }
end
key_counts
