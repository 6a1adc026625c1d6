# Step 4: Implement
history = context[:conversation_history] || []
recent = history.last(3)
result = recent.map { |rec| "#{rec[:method_name]}(#{(rec[:args] || []).join(', ')})" }
