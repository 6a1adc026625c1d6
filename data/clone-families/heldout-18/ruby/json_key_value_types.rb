require "json"

history = context[:conversation_history] || []
key_types = Hash.new { |h, k| h[k] = [] }
history.each do |record|
  next unless record[:role] == "tool" && record[:content].is_a?(String)

  begin
    parsed = JSON.parse(record[:content])
  rescue JSON::ParserError
    next
  end
  next unless parsed.is_a?(Hash)

  parsed.each { |key, value| key_types[key] |= [value.class.name] }
end
key_types
