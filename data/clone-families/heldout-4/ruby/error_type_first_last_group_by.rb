calls = context[:conversation_history] || []
calls
  .select { |c| c.dig(:outcome_summary, :error_type) }
  .group_by { |c| c.dig(:outcome_summary, :error_type) }
  .map { |type, group| { error_type: type, first_seen: group.first[:timestamp], last_seen: group.last[:timestamp], occurrences: group.size } }
