max_items = (args.first || 10).to_i
list = (context[:conversation_history] || []).filter_map { |m| m[:speaker]&.to_s }.uniq
result = { speakers: list, count: list.size, max_items: max_items }
