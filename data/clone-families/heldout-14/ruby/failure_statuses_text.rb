history = context[:conversation_history] || []
seen = Hash.new { |h, k| h[k] = [] }
history.each do |r|
  out = r[:outcome_summary] || {}
  name = r[:method_name]
  seen[name] |= [out[:status]] if out[:ok] == false && name.to_s != "" && out[:status].to_s != ""
end
lines = seen.sort.map { |name, sts| "#{name} failed with status #{sts.join('/')}" }
lines.empty? ? "no failing method reported a status" : lines.join("\n")
