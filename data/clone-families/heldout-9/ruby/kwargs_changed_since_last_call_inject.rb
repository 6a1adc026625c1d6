entries = context[:conversation_history] || []
state = entries.inject({ last: {}, out: [] }) do |acc, e|
  method = e[:method_name]
  if method.to_s != ""
    kw = e[:kwargs].nil? ? {} : e[:kwargs]
    if acc[:last].key?(method) && !acc[:last][method].eql?(kw)
      acc[:out] << [e[:call_id], method, acc[:last][method], kw]
    end
    acc[:last][method] = kw
  end
  acc
end
Agent::Outcome.ok(state[:out].map { |cid, m, was, now| { call_id: cid, method: m, before: was, after: now } })
