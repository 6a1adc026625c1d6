log = context[:conversation_history] || []
grouped = log.group_by { |e| e[:outcome_summary][:ok] == true ? :succeeded : :failed }
means = %i[succeeded failed].to_h do |label|
  depths = (grouped[label] || []).map { |e| e[:depth].to_i }
  [label, depths.empty? ? nil : depths.sum.to_f / depths.size]
end
means[:difference] = means[:failed] - means[:succeeded] if means.values.none?(&:nil?)
Agent::Outcome.ok(means)
