records = context.fetch(:conversation_history, nil) || []
pairs = records.filter_map do |r|
  o = r[:outcome_summary]
  next unless o.is_a?(Hash) && o[:ok] == false
  next if r[:speaker].nil? || r[:speaker] == "" || o[:error_type].nil? || o[:error_type] == ""

  [r[:speaker], o[:error_type]]
end
pairs.uniq.each_with_object({}) { |(speaker, type), h| (h[speaker] ||= []) << type }
