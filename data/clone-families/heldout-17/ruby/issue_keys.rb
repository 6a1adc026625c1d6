history = Array(context[:conversation_history])
counts = Hash.new(0)
history.each do |entry|
  text = entry[:content]
  next unless text.is_a?(String)

  text.scan(/\b[A-Z][A-Z0-9]+-\d+\b/) { |key| counts[key] += 1 }
end
counts
