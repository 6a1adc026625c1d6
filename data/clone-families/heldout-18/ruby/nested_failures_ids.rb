log = context.fetch(:conversation_history, nil) || []
Agent::Outcome.ok(
  log.filter_map do |entry|
    summary = entry[:outcome_summary]
    failed = summary.is_a?(Hash) && summary[:ok] == false
    entry[:call_id] if failed && entry[:depth].is_a?(Integer) && entry[:depth] > 1
  end
)
