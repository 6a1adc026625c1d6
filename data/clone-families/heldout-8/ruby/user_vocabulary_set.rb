require "set"

msgs = context[:conversation_history] || []
words = Set.new
total = 0
msgs.each do |m|
  next unless m[:role] == "user"
  tokens = (m[:content] || "").downcase.split(/\s+/).reject(&:empty?)
  total += tokens.size
  words.merge(tokens)
end
{ distinct_words: words.size, total_words: total }
