records = context[:conversation_history] || []
pairs = []
records.each_with_index do |r, i|
  next if r.dig(:outcome_summary, :ok)
  recovery = records[(i + 1)..].find do |later|
    name = later[:method_name]
    name && !name.empty? && later.dig(:outcome_summary, :ok)
  end
  pairs << [r[:call_id], recovery && recovery[:call_id]]
end
pairs
