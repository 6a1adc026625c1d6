records = context[:conversation_history] || []
pairs = []
records.each_with_index do |r, i|
  next if r.dig(:outcome_summary, :ok)
  following = records[(i + 1)..].find do |later|
    name = later[:method_name]
    name && !name.empty?
  end
  pairs << [r[:call_id], following && following[:call_id]]
end
pairs
