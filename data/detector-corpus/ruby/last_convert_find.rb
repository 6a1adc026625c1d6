history = context[:conversation_history] || []
last_convert = history.reverse.find { |r| r[:method_name] == "convert" }
result = last_convert ? last_convert[:args] : nil
