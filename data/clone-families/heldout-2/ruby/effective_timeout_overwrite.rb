default_timeout = (kwargs[:default_timeout] || 30).to_i
current = nil
(context[:conversation_history] || []).each do |h|
  kw = h[:kwargs] || {}
  current = kw[:timeout] if kw.key?(:timeout)
end
result = { timeout: current, default: default_timeout, effective: current || default_timeout }
