require "set"

seen = Set.new
ordered = []
(context[:conversation_history] || []).each do |h|
  o = h[:outcome_summary] || {}
  n = h[:need].to_s.strip
  next if o[:ok] || n.empty?
  ordered << n if seen.add?(n)
end

ordered.each_with_index.map { |n, i| "#{i + 1}) #{n}" }.join("\n")
