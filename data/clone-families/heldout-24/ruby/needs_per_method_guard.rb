log = Array(context[:conversation_history])
by_method = {}
log.each do |item|
  next unless item.is_a?(Hash)

  meth = item[:method_name]
  need = item[:need]
  next unless meth.is_a?(String) && !meth.empty?
  next unless need.is_a?(String) && !need.empty?

  (by_method[meth] ||= []) << need unless by_method.fetch(meth, []).include?(need)
end
Agent::Outcome.ok(by_method)
