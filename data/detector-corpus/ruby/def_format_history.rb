def format_history(records)
  records.map { |r| "#{r[:speaker]}: #{r[:method_name]}" }.join("\n")
end

result = format_history(context[:conversation_history] || [])
