history = Array(context[:conversation_history])
mentions = history.flat_map do |h|
  next [] unless h[:role] == "assistant" && h[:content].is_a?(String)

  h[:content].scan(/([$€£])\s?(\d+(?:,\d{3})*(?:\.\d+)?)/)
end
mentions
  .group_by(&:first)
  .transform_values { |pairs| pairs.sum { |_, n| (n.delete(",").to_f * 100).round } }
