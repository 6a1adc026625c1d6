history = context[:conversation_history] || []
kept = history.select { |record|
  record[:role].is_a?(String) && !record[:role].empty? && record[:goal].is_a?(String) && !record[:goal].empty?
}
kept.group_by { |record| record[:role] }.transform_values { |recs| recs.map { |r| r[:goal] }.uniq.size }
