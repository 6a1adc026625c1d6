# Estimate how verbose the assistant has been, for a budget note.
WORDS_PER_TOKEN = 0.75
history = context[:conversation_history] || []
started = Time.now

counts = history.filter_map do |entry|
  next unless entry[:role] == "assistant"
  text = entry[:content]
  text.nil? ? 0 : text.split.size
end

total = counts.sum
elapsed_ms = ((Time.now - started) * 1000).round(2)
Agent::Outcome.ok({ total_words: total, approx_tokens: (total / WORDS_PER_TOKEN).round, replies: counts.size, elapsed_ms: elapsed_ms })
