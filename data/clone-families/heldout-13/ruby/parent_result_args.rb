history = context[:conversation_history] || []
by_id = history.to_h { |r| [r[:call_id], r] }
reused = []
history.each do |rec|
  next if rec[:method_name].to_s.empty?
  parent = by_id[rec[:parent_call_id]]
  next if parent.nil?
  summary = (parent[:outcome_summary] || {})[:summary]
  next unless summary.is_a?(String) && !summary.empty?
  reused << { call_id: rec[:call_id], from: parent[:call_id] } if (rec[:args] || []).include?(summary)
end
reused
