history = context[:conversation_history] || []
first_mention = history.each_with_object({}) do |rec, acc|
  next unless rec[:content]
  rec[:content].scan(%r{(?:[\w.-]+/)+[\w-]+\.[A-Za-z0-9]+}).each do |path|
    acc[path] ||= rec[:call_id]
  end
end
Agent::Outcome.ok(first_mention.map { |path, call_id| { path: path, first_seen_in: call_id } })
