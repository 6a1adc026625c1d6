history = context[:conversation_history] || []
stats = Hash.new { |h, k| h[k] = { ok: 0, total: 0 } }
history.each do |record|
  next if record[:method_name].to_s.empty?

  outcome = record[:outcome_summary] || {}
  next unless [true, false].include?(outcome[:ok])

  kwargs = record[:kwargs]
  next unless kwargs.is_a?(Hash)

  kwargs.each_key do |key|
    stats[key.to_s][:total] += 1
    stats[key.to_s][:ok] += 1 if outcome[:ok]
  end
end
stats.transform_values { |s| (s[:ok].to_f / s[:total]).round(3) }
