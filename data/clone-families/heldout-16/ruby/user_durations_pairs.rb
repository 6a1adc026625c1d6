history = context[:conversation_history] || []
to_seconds = lambda do |amount, unit|
  factor = if unit =~ /\Ah/i then 3600
           elsif unit =~ /\Am/i then 60
           else 1
           end
  amount.to_i * factor
end
history
  .select { |r| r[:role] == "user" && r[:content].is_a?(String) }
  .map { |r| [r[:call_id], r[:content].scan(/(\d+)\s*(hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)\b/i)] }
  .reject { |_, found| found.empty? }
  .map { |id, found| [id, found.sum { |a, u| to_seconds.call(a, u) }] }
