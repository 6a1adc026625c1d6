require "time"

history = context[:conversation_history] || []
stamp = ->(r) { r[:timestamp] && Time.iso8601(r[:timestamp]) }
lookup = history.select { |r| r[:call_id] }.to_h { |r| [r[:call_id], r] }
history.select { |r|
  parent = lookup[r[:parent_call_id]]
  parent && stamp.(r) && stamp.(parent) && stamp.(r) < stamp.(parent)
}.map { |r| r[:call_id] }
