records = context[:conversation_history] || []
records.filter_map do |r|
  s = r[:outcome_summary] || {}
  r[:call_id] if s[:ok] == true && s[:value_class].to_s == "NilClass"
end
