require "set"

records = context[:conversation_history] || []
found = records.each_with_object(Set.new) do |r, acc|
  acc.merge(r[:content].to_s.scan(/\b\d{4}-\d{2}-\d{2}\b/)) if r[:role] == "user"
end
Agent::Outcome.ok(found.to_a.sort)
