history = context[:conversation_history] || []
summary = history.inject("") { |acc, rec| acc + "#{rec[:method_name]}; " }
result = summary.strip
