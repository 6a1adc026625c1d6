history = context[:conversation_history] || []
seen_results = []
matches = {}
history.each do |rec|
  name = rec[:method_name]
  if name.is_a?(String) && !name.empty?
    hits = (rec[:args] || []).select { |arg| arg.is_a?(String) && seen_results.include?(arg) }
    matches[rec[:call_id]] = hits.uniq unless hits.empty?
  end
  res = rec[:outcome_summary]
  next unless res.is_a?(Hash) && res[:ok] == true
  text = res[:summary]
  seen_results << text if text.is_a?(String) && !text.empty? && !seen_results.include?(text)
end
matches
