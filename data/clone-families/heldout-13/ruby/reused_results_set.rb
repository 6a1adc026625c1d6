require "set"

history = context[:conversation_history] || []
results = Set.new
ids = []
history.each do |step|
  args = step[:args] || []
  if step[:method_name] && step[:method_name] != "" && args.any? { |a| a.is_a?(String) && results.include?(a) }
    ids << step[:call_id]
  end
  o = step[:outcome_summary] || {}
  results << o[:summary] if o[:ok] && o[:summary].is_a?(String) && o[:summary] != ""
end
ids.empty? ? "no call reused an earlier result" : "calls fed with earlier results: #{ids.join(', ')}"
