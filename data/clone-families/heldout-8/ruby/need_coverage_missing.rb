records = context[:conversation_history] || []
missing = records.select { |r| r[:need].nil? || r[:need] == "" }.map { |r| r[:call_id] }
{
  ratio: records.empty? ? nil : (records.size - missing.size).fdiv(records.size),
  missing_need: missing
}
