history = context[:conversation_history] || []
stats = Hash.new { |h, k| h[k] = [0, 0] }
history.each do |rec|
  pair = stats[rec[:method_name]]
  pair[1] += 1
  pair[0] += 1 if rec.dig(:outcome_summary, :ok)
end
result = stats.transform_values { |ok, total| (ok.to_f / total).round(2) }
