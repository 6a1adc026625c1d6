hist = context[:conversation_history] || []
tail = hist.reverse.take_while { |e| e[:speaker] != "assistant" }.reverse
tail.filter_map { |e| e[:content] if e[:speaker] == "user" }
