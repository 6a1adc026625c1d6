entries = context[:conversation_history] || []
streaks = entries.chunk { |e| e.fetch(:outcome_summary, {})[:status] == "ok" }
                 .select { |good, _| good }
                 .map { |_, grp| grp.length }
streaks.empty? ? "no successful stretch" : "successful stretches: #{streaks.join(', ')}"
