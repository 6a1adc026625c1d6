history = context[:conversation_history] || []
verbs = history
        .map { |record| record[:outcome_summary] || {} }
        .select { |outcome| outcome[:ok] == true && outcome[:summary].is_a?(String) }
        .filter_map { |outcome| outcome[:summary].split.first }
        .map(&:downcase)
        .tally
Agent::Outcome.ok(verbs)
