msgs = context[:conversation_history] || []
idx = msgs.index { |m| m[:role].to_s == "user" }
idx.nil? ? nil : msgs.fetch(idx)[:content]
