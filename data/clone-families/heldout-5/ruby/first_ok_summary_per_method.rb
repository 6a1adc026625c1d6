history = context[:conversation_history] || []

first = {}
history.each do |rec|
  outcome = rec[:outcome_summary] || {}
  next unless outcome[:ok]
  first[rec[:method_name]] ||= outcome[:summary]
end

first
