history = context.fetch(:conversation_history, nil) || []
tags = history
       .select { |record| record[:role] == "user" && record[:content].is_a?(String) }
       .flat_map { |record| record[:content].scan(/\[([A-Za-z][\w-]*)\]/).flatten }
       .map(&:downcase)
       .tally
Agent::Outcome.ok(tags)
