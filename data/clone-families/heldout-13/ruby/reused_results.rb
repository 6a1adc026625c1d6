history = context[:conversation_history] || []
produced = {}
reused = []
history.each do |rec|
  unless rec[:method_name].to_s.empty?
    source = (rec[:args] || []).grep(String).map { |a| produced[a] }.compact.first
    reused << { call_id: rec[:call_id], from: source } if source
  end
  outcome = rec[:outcome_summary] || {}
  summary = outcome[:summary]
  if outcome[:ok] == true && summary.is_a?(String) && !summary.empty?
    produced[summary] ||= rec[:call_id]
  end
end
reused
