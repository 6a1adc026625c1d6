history = context[:conversation_history] || []
total = {}
count = Hash.new(0)
history.each do |step|
  next if step[:role] != "assistant"
  next unless step[:content].is_a?(String)

  step[:content].scan(/([$€£])\s?(\d+(?:,\d{3})*(?:\.\d+)?)/) do |cur, value|
    total[cur] = total.fetch(cur, 0.0) + value.gsub(",", "").to_f
    count[cur] += 1
  end
end
if total.empty?
  "The assistant quoted no amounts."
else
  total.map { |cur, sum| format("%s%.2f over %d mention(s)", cur, sum, count[cur]) }.join(", ")
end
