history = Array(context[:conversation_history])
kids = Hash.new { |h, k| h[k] = [] }
history.each { |msg| kids[msg[:parent_call_id]] << msg[:call_id] unless msg[:parent_call_id].to_s.empty? }
lonely = kids.select { |_, ids| ids.size == 1 }
if lonely.empty?
  "No record is the only child of its parent."
else
  lonely.map { |parent, ids| "#{ids.first} is the only child of #{parent}" }.join("\n")
end
