def settled?(step)
  return false if step[:method_name].to_s.empty?

  summary = step[:outcome_summary]
  summary.is_a?(Hash) && (summary[:ok] == true || summary[:ok] == false)
end

steps = (context[:conversation_history] || []).select { |s| settled?(s) && s[:kwargs].is_a?(Hash) }
keys = steps.flat_map { |s| s[:kwargs].keys.map(&:to_s) }.uniq.sort
keys.map do |key|
  using = steps.select { |s| s[:kwargs].keys.map(&:to_s).include?(key) }
  ok = using.count { |s| s[:outcome_summary][:ok] }
  [key, ok, using.size - ok, (ok.to_f / using.size).round(2)]
end
