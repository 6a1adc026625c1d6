statuses = (context[:conversation_history] || []).map { |c| c.dig(:outcome_summary, :status) }
statuses.zip(statuses.drop(1)).reject { |_, b| b.nil? }.tally.map { |(from, to), n| { from: from, to: to, count: n } }
