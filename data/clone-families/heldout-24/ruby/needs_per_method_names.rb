entries = Array(context[:conversation_history])
wanted = {}
entries.each do |entry|
  want = entry[:need]
  name = entry[:method_name]
  next unless name.is_a?(String) && !name.empty? && want.is_a?(String) && !want.empty?

  (wanted[name] ||= []) << want unless wanted.fetch(name, []).include?(want)
end
Agent::Outcome.ok(wanted)
