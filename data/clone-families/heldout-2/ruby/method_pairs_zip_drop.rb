methods = (context[:conversation_history] || []).filter_map { |h| h[:method_name] }
result = methods.zip(methods.drop(1)).reject { |_, nxt| nxt.nil? }
