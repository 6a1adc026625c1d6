require "time"

history = context[:conversation_history] || []
method = kwargs[:method]
gaps = history.each_cons(2).select { |r, _| r[:method_name] == method }.map do |r, nxt|
  Time.parse(nxt[:timestamp]) - Time.parse(r[:timestamp])
end
gaps.empty? ? nil : gaps.sum / gaps.size
