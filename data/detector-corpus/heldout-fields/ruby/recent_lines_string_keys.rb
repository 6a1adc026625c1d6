history = context[:conversation_history] || []
recent = history[-4..] || []
result = recent.map { |r| "#{r["speaker"]}: #{r["method_name"]}" }.join("\n")
