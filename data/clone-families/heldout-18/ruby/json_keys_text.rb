require "json"

history = context[:conversation_history] || []
objects = []
history.each do |msg|
  next unless msg[:role] == "tool"
  raw = msg[:content]
  next unless raw.is_a?(String)

  begin
    data = JSON.parse(raw)
    objects << data if data.is_a?(Hash)
  rescue JSON::ParserError
    # plain-text tool output, nothing to inspect
  end
end
freq = Hash.new(0)
objects.each { |o| o.keys.each { |k| freq[k] += 1 } }
if freq.empty?
  "No JSON object found in tool output."
else
  "Keys seen in #{objects.size} JSON tool result(s):\n" + freq.map { |k, n| "  #{k}: #{n}" }.join("\n")
end
