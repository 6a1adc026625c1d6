history = context[:conversation_history] || []
goals = history.map { |h| h[:goal] }.compact.reject(&:empty?).uniq
firsts = goals.filter_map do |g|
  idx = history.index { |h| h[:goal] == g && h[:outcome_summary].is_a?(Hash) && h[:outcome_summary][:ok] == true }
  [g, idx] if idx
end
firsts.sort_by { |_, idx| idx }.map(&:first)
