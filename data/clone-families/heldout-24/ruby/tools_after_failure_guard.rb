log = context.fetch(:conversation_history, nil) || []
found = []
unless log.empty?
  log.each_with_index do |item, i|
    summary = item[:outcome_summary]
    next unless summary.is_a?(Hash) && summary[:ok] == false

    ids = []
    log[(i + 1)..].each do |after|
      break if after.dig(:outcome_summary, :ok) == true

      ids << after[:call_id] if after[:role] == "tool"
    end
    found << { call_id: item[:call_id], tool_ids: ids }
  end
end
Agent::Outcome.ok(found)
