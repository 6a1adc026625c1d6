history = context[:conversation_history] || []
loud = []
history.each do |entry|
  next unless entry[:role] == "user"
  text = entry[:content]
  next unless text.is_a?(String)
  letters = text.gsub(/[^A-Za-z]/, "")
  loud << entry[:call_id] if letters.length >= 3 && letters == letters.upcase
end
loud.empty? ? "the user has not shouted" : "user shouted in #{loud.join(', ')}"
