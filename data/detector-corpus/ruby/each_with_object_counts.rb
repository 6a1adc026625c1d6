history = context[:conversation_history] || []
counts = history.each_with_object(Hash.new(0)) { |rec, acc| acc[rec[:speaker]] += 1 }
result = counts
