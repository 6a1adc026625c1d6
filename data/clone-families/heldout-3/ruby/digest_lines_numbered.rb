digest = []
(context[:conversation_history] || []).each_with_index do |entry, idx|
  outcome = entry[:outcome_summary] || {}
  digest << format("%02d %s %s [%s]", idx + 1, entry[:speaker], entry[:method_name], outcome[:status])
end
result = digest.join("\n")
