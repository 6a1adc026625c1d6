window = (args[0]..args[1])
records = context[:conversation_history] || []
hits = records.find_all { |rec| !rec[:timestamp].nil? && window.cover?(rec[:timestamp]) }
result = { call_ids: hits.collect { |rec| rec[:call_id] }, count: hits.size }
