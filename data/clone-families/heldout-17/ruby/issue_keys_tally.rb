history = context[:conversation_history] || []
history.map { |r| r[:content] }
       .grep(String)
       .flat_map { |text| text.scan(/\b[A-Z][A-Z0-9]+-\d+\b/) }
       .tally
