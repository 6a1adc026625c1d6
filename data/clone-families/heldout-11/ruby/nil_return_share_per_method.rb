history = context[:conversation_history] || []
ok_calls = Hash.new(0)
empty_results = Hash.new(0)
history.each do |rec|
  outcome = rec[:outcome_summary]
  next if outcome.nil?
  next unless outcome[:ok] == true
  ok_calls[rec[:method_name]] += 1
  empty_results[rec[:method_name]] += 1 if outcome[:value_class] == "NilClass"
end
ok_calls.to_h { |method, n| [method, (empty_results[method].to_f / n).round(3)] }
