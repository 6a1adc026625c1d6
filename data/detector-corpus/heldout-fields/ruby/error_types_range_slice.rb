history = context[:conversation_history] || []
errors = history[-7..-1].to_a.each_with_object(Hash.new(0)) do |rec, acc|
  summary = rec[:outcome_summary] || {}
  acc[summary[:error_type]] += 1 if summary[:error_type]
end
result = errors
