calls = context[:conversation_history] || []
deep_call = calls.max_by { |c| c[:depth] || 0 }
level = deep_call ? (deep_call[:depth] || 0) : 0
result = "max delegation depth: #{level}"
