RANK = { "DEBUG" => 0, "INFO" => 1, "WARN" => 2, "WARNING" => 2, "ERROR" => 3 }.freeze

history = Array(context[:conversation_history])
worst = {}
history.each do |rec|
  next unless rec[:role] == "tool" && rec[:content].is_a?(String)
  next if rec[:method_name].to_s.empty?

  rec[:content].scan(/\b(ERROR|WARNING|WARN|INFO|DEBUG)\b/) do |(level)|
    current = worst[rec[:method_name]]
    worst[rec[:method_name]] = level if current.nil? || RANK[level] > RANK[current]
  end
end
worst
