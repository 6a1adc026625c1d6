records = context[:conversation_history] || []
verbose = []
records.each do |rec|
  summary = rec[:outcome_summary] || {}
  text = summary[:error_message]
  next unless summary[:ok] == false && text.is_a?(String) && text.length > 80

  verbose << { call_id: rec[:call_id], length: text.length }
end
verbose
