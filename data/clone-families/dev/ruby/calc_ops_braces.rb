# Step 4: Implement
records = context[:conversation_history] || []

ops = records.select { |r|
  r[:speaker] == "calculator" &&
  r[:method_name] != "history" &&
  r[:outcome_summary][:ok]
}.map { |r|
  { method: r[:method_name], args: r[:args], result: r[:outcome_summary][:value_class] }
}

result = { operations: ops, count: ops.size }
