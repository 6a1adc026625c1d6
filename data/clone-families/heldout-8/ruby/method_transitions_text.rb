turns = context[:conversation_history] || []
names = []
turns.each { |t| names << t[:method_name] unless t[:method_name].to_s.strip.empty? }
seen = {}
i = 0
while i + 1 < names.size
  key = "#{names[i]} → #{names[i + 1]}"
  seen[key] = (seen[key] || 0) + 1
  i += 1
end
(["method transitions (#{names.size} calls):"] + seen.map { |k, v| "  #{k}: #{v}" }).join("\n")
