pattern = Regexp.new(Regexp.escape(kwargs[:query].to_s), Regexp::IGNORECASE)
matches = []
(context[:conversation_history] || []).each do |r|
  next unless r[:content]
  matches << r[:call_id] if r[:content].to_s =~ pattern
end
result = matches.empty? ? "no messages mention #{kwargs[:query]}" : "found in: #{matches.join(', ')}"
