history = context[:conversation_history] || []
words = history.select { |r| r[:role] == "user" }.flat_map { |r| r[:content].to_s.downcase.split }
words.tally.max_by { |_, n| n }
