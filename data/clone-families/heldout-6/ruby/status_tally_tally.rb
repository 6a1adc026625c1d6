history = context[:conversation_history] || []
history.map { |r| (r[:outcome_summary] || {})[:status] || "unknown" }.tally
