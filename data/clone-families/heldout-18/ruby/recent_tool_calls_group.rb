require "time"

history = context[:conversation_history] || []
to_time = ->(r) { Time.iso8601(r[:timestamp]) }
with_time = history.reject { |r| r[:timestamp].nil? }
last_at = with_time.map(&to_time).max
tool_calls = with_time.select { |r| r[:role] == "tool" && r[:method_name] && r[:method_name] != "" }
in_window = last_at ? tool_calls.select { |r| last_at - to_time.(r) <= 900 } : []
in_window.group_by { |r| r[:method_name] }
         .map { |method, calls| [method, calls.size] }
         .sort
         .to_h
