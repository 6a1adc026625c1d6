history = context[:conversation_history] || []
wins = Hash.new(0)
uses = Hash.new(0)
history.each do |call|
  next if call[:method_name].to_s.empty?

  status = call[:outcome_summary].is_a?(Hash) ? call[:outcome_summary][:ok] : nil
  next if status.nil?
  next unless call[:kwargs].is_a?(Hash)

  call[:kwargs].keys.map(&:to_s).each do |key|
    uses[key] += 1
    wins[key] += 1 if status == true
  end
end
report = uses.keys.sort.map { |k| "#{k}: #{wins[k]} of #{uses[k]} calls succeeded (#{(100 * wins[k] / uses[k].to_f).round}%)" }
report.empty? ? "No finished call used keyword arguments." : report.join("\n")
