duration = /(\d+)\s*(hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)\b/i
history = Array(context[:conversation_history])
minutes = {}
history.each do |h|
  next if h[:role] != "user" || !h[:content].is_a?(String)

  parts = h[:content].scan(duration)
  next if parts.empty?

  total = parts.sum do |n, unit|
    case unit.downcase[0]
    when "h" then n.to_i * 60.0
    when "m" then n.to_i.to_f
    else n.to_i / 60.0
    end
  end
  minutes[h[:call_id]] = total.round(2)
end
minutes
