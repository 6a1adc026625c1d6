history = context[:conversation_history] || []
history.select { |r| r[:role] == "tool" }
       .map { |r| r[:content] }
       .grep(String)
       .flat_map { |text| text.scan(/\b(?:ERROR|WARNING|WARN|INFO|DEBUG)\b/) }
       .tally
