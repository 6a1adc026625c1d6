require "json"

tool_docs = Array(context[:conversation_history]).filter_map do |r|
  next unless r[:role] == "tool" && r[:content].is_a?(String)

  doc = JSON.parse(r[:content]) rescue nil
  doc if doc.is_a?(Hash)
end
Agent::Outcome.ok(tool_docs.flat_map(&:keys).tally)
