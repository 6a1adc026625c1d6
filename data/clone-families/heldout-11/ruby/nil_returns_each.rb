history = context[:conversation_history] || []
ok_count = 0
nils = {}
history.each do |rec|
  summary = rec[:outcome_summary]
  next unless summary && summary[:ok]
  ok_count += 1
  next unless summary[:value_class] == "NilClass"
  nils[rec[:call_id]] = rec[:method_name] || rec[:role]
end
report = nils.map { |id, who| "#{id} #{who} -> nil" }
report << "#{nils.size} of #{ok_count} successful calls returned nil"
report.join("\n")
