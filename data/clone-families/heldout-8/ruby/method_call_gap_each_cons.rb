require "time"

history = context[:conversation_history] || []
method = kwargs[:method]
stamps = history.select { |r| r[:method_name] == method }.map { |r| Time.parse(r[:timestamp]) }
gaps = stamps.each_cons(2).map { |a, b| b - a }
gaps.empty? ? nil : gaps.sum / gaps.size
