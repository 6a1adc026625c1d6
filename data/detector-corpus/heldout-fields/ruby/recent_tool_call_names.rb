messages = context[:conversation_history] || []
calls = messages.last(4).flat_map { |m| m[:tool_calls] || [] }
result = calls.map { |c| c[:name] }.uniq
