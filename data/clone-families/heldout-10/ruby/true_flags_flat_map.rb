records = context[:conversation_history] || []
enabled = records.flat_map { |r| (r[:kwargs] || {}).select { |_k, v| v == true }.keys }
Agent::Outcome.ok(enabled.tally.sort_by { |k, _| k.to_s }.to_h)
