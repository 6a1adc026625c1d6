entries = context[:conversation_history] || []
seen = entries.each_with_object({}) do |entry, acc|
  who = entry[:role]
  aim = entry[:goal]
  next unless who.is_a?(String) && !who.empty? && aim.is_a?(String) && !aim.empty?

  (acc[who] ||= []) << aim unless (acc[who] || []).include?(aim)
end
seen.transform_values(&:size)
