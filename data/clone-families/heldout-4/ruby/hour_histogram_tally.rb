calls = context[:conversation_history] || []
calls.map { |c| c[:timestamp][11, 2].to_i }.tally.sort_by { |h, _| h }.to_h
