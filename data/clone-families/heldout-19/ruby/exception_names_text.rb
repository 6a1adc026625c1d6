history = Array(context[:conversation_history])
seen = Hash.new(0)
history.each do |msg|
  text = msg[:content]
  next unless msg[:role] == "tool" && text.is_a?(String)

  text.scan(/\b[A-Z][A-Za-z0-9]*(?:Error|Exception)\b/).each { |exc| seen[exc] += 1 }
end
if seen.empty?
  "No exception names appear in tool output."
else
  "Exceptions in tool output: " + seen.sort_by { |exc, n| [-n, exc] }.map { |exc, n| "#{exc} (#{n}x)" }.join(", ")
end
