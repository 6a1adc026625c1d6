records = context.fetch(:conversation_history, nil) || []

def ok_summary(rec)
  out = rec[:outcome_summary]
  return nil unless out.is_a?(Hash) && out[:ok] == true

  s = out[:summary].to_s.strip
  s.empty? ? nil : s
end

hits = records.each_with_index.select do |rec, i|
  rec[:role] == "assistant" && rec[:content].is_a?(String) &&
    records[0...i].any? { |earlier| (s = ok_summary(earlier)) && rec[:content].include?(s) }
end
Agent::Outcome.ok(hits.map { |rec, _i| rec[:call_id] })
