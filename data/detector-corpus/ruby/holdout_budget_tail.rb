budget = (kwargs[:budget] || 2000).to_i
kept = []
used = 0
(context[:conversation_history] || []).reverse_each do |rec|
  cost = rec[:outcome_summary].to_s.length / 4
  break if used + cost > budget
  kept.unshift(rec)
  used += cost
end
result = kept
