log = context.fetch(:conversation_history, nil) || []
calls = log.select do |e|
  e[:method_name].is_a?(String) && !e[:method_name].empty? &&
    e[:kwargs].is_a?(Hash) &&
    e[:outcome_summary].is_a?(Hash) && [true, false].include?(e[:outcome_summary][:ok])
end
by_key = Hash.new { |h, k| h[k] = [] }
calls.each do |e|
  e[:kwargs].each_key { |k| by_key[k.to_s] << e[:outcome_summary][:ok] }
end
Agent::Outcome.ok(
  by_key.sort.map do |key, oks|
    { kwarg: key, calls: oks.size, success_pct: (100.0 * oks.count(true) / oks.size).round(1) }
  end
)
