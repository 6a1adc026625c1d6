history = context[:conversation_history] || []
history.select { |r| r[:role] == "user" }.flat_map { |r| r[:content].to_s.downcase.split }.uniq.size
