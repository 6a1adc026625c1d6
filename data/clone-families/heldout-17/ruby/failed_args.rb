history = context[:conversation_history] || []
counts = Hash.new(0)
history.each do |rec|
  next if rec[:method_name].to_s.empty?

  outcome = rec[:outcome_summary] || {}
  next unless outcome[:ok] == false

  (rec[:args] || []).grep(String).uniq.each { |arg| counts[arg] += 1 }
end
counts
