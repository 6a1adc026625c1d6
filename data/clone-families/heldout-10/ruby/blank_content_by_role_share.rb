log = context[:conversation_history] || []
stats = {}
log.each do |entry|
  row = stats[entry[:role]] ||= { blank: 0, total: 0 }
  row[:total] += 1
  row[:blank] += 1 if /\A\s*\z/.match?(entry[:content].to_s)
end
stats.each_value { |row| row[:percent_blank] = (100.0 * row[:blank] / row[:total]).round(1) }
stats
