hist = context[:conversation_history] || []
sizes = hist.map { |e| e[:content].nil? ? 0 : e[:content].length }

i = 0
winner = nil
while i < sizes.length
  winner = i if winner.nil? || sizes[i] > sizes[winner]
  i += 1
end

winner && [hist[winner][:call_id], sizes[winner]]
