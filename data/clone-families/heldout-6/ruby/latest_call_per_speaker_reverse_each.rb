found = {}
(context[:conversation_history] || []).reverse_each { |r| found[r[:speaker]] ||= { call_id: r[:call_id], at: r[:timestamp] } }
found
