history = context[:conversation_history] || []
speakers = history.map { |r| r[:speaker] }.compact.tally
result = speakers
