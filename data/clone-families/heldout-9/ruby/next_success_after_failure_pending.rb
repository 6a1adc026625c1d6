history = context[:conversation_history] || []
pending = []
resolved = {}
order = []
history.each do |h|
  outcome = h[:outcome_summary] || {}
  if outcome[:status] != "ok"
    pending << h[:call_id]
    order << h[:call_id]
  elsif !h[:method_name].to_s.empty?
    pending.each { |cid| resolved[cid] = h[:call_id] }
    pending.clear
  end
end
order.map { |cid| { failed: cid, next_success: resolved[cid] } }
