shouty = ->(s) { s.match?(/[A-Z](?:[^a-z]*[A-Z]){2}/) && !s.match?(/[a-z]/) }

history = context[:conversation_history] || []
rows = history.each_with_object([]) do |h, acc|
  next unless h[:role] == "user" && h[:content].is_a?(String) && shouty.(h[:content])
  acc << { call_id: h[:call_id], at: h[:timestamp], preview: h[:content][0, 40] }
end
rows
