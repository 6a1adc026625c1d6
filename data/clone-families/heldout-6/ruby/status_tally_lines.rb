entries = context[:conversation_history] || []
by_status = entries.each_with_object({}) do |e, acc|
  key = (e[:outcome_summary] && e[:outcome_summary][:status]) || "none"
  acc[key] = (acc[key] || 0) + 1
end
total = entries.size
by_status.map { |status, n| "#{status}: #{n} of #{total}" }.join("\n")
