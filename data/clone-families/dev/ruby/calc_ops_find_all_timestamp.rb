calls = context[:conversation_history] || []

successful = calls.find_all do |c|
  c[:speaker] == "calculator" && c[:method_name] != "history" && c.dig(:outcome_summary, :ok)
end

rows = successful.collect do |c|
  {
    method: c[:method_name],
    args: c[:args],
    result: c.dig(:outcome_summary, :value_class),
    timestamp: c[:timestamp]
  }
end

result = { operations: rows, count: rows.length }
