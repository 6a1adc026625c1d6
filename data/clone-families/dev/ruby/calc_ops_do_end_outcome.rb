# Step 1: Decompose
# - Capability: list successful calculator operations so far
# Step 3: Select Stance
# - Do: inline retrieval of session history

history_records = context[:conversation_history] || []

operations = history_records.select do |record|
  record[:speaker] == "calculator" &&
    record[:method_name] != "history" &&
    record[:outcome_summary][:ok]
end.map do |record|
  {
    method: record[:method_name],
    args: record[:args],
    result: record[:outcome_summary][:value_class]
  }
end

result = { operations: operations, count: operations.length }

Agent::Outcome.ok(result)
