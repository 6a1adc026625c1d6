NUMBER = /-?\d+(?:\.\d+)?/

messages = (context[:conversation_history] || []).select { |h| h[:role] == "user" && h[:content].is_a?(String) }
values = messages.flat_map { |h| h[:content].scan(NUMBER).map { |t| Float(t) } }
Agent::Outcome.ok({ numbers: values, count: values.size })
