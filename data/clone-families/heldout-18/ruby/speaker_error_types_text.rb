history = context[:conversation_history] || []
seen = Hash.new { |h, k| h[k] = [] }
history.each do |step|
  out = step[:outcome_summary] || {}
  who = step[:speaker]
  kind = out[:error_type]
  next unless out[:ok] == false && who && !who.empty? && kind && !kind.empty?

  seen[who] |= [kind]
end
if seen.empty?
  "No speaker has produced a typed failure."
else
  seen.map { |who, list| "#{who} hit #{list.size} error type(s): #{list.join(', ')}" }.join("\n")
end
