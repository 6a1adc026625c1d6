history = context[:conversation_history] || []
latest = {}
history.each { |r| latest[r[:method_name]] = r unless r[:method_name].to_s.empty? }
latest.select { |_, r| r.dig(:outcome_summary, :ok) }.keys.sort
