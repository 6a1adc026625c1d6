records = Array(context[:conversation_history])
records.map { |r| r[:timestamp] }
       .reject { |ts| ts.nil? || ts.empty? }
       .map { |ts| ts[0...10] }
       .tally
       .sort
       .to_h
