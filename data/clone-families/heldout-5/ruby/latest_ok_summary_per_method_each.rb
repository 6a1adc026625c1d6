history = context[:conversation_history] || []

latest = {}
history.each do |rec|
  outcome = rec[:outcome_summary] || {}
  next unless outcome[:ok]
  latest[rec[:method_name]] = outcome[:summary]
end

latest
