history = context[:conversation_history] || []
names = history.map { |h| h[:kwargs] || {} }.inject([]) { |acc, kw| acc | kw.keys }
sorted = names.map(&:to_s).sort
result = sorted.empty? ? "no keyword arguments used" : "kwargs seen: #{sorted.join(', ')}"
