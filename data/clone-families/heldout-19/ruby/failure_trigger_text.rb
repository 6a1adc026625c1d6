history = Array(context[:conversation_history])
first_bad = history.find_index { |m| (m[:outcome_summary] || {})[:ok] == false }
if first_bad.nil?
  "Nothing has failed yet."
else
  trigger = history[0...first_bad].select { |m| m[:role] == "user" }.last
  if trigger
    "The first failure (#{history[first_bad][:call_id]}) came after user message #{trigger[:call_id]}: #{trigger[:content].inspect}"
  else
    "The first failure (#{history[first_bad][:call_id]}) happened before any user message."
  end
end
