convo = context[:conversation_history] || []
ranked = convo.each_with_index.sort_by { |h, i| [-(h[:content] || "").length, i] }

if ranked.empty?
  "no records"
else
  winner = ranked.first[0]
  "#{winner[:call_id]} has the longest content (#{(winner[:content] || '').length} chars)"
end
