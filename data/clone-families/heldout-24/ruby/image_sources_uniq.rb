records = context[:conversation_history] || []
found = records
  .select { |rec| rec[:content].is_a?(String) }
  .flat_map { |rec| rec[:content].scan(/!\[[^\]]*\]\(([^)\s]+)[^)]*\)/).flatten }
  .uniq
Agent::Outcome.ok(found)
