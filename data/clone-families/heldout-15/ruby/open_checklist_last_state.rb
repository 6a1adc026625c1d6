events = []
Array(context[:conversation_history]).each_with_index do |msg, pos|
  next unless msg[:role] == "assistant"

  msg[:content].to_s.each_line do |line|
    if (m = line.chomp.match(/\A\s*[-*]\s+\[([ xX])\]\s+(.*\S)\s*\z/))
      events << { item: m[2], checked: m[1].downcase == "x", at: pos }
    end
  end
end
latest = events.group_by { |e| e[:item] }.transform_values(&:last)
latest.values.reject { |e| e[:checked] }.map { |e| { item: e[:item], last_seen_at: e[:at] } }
