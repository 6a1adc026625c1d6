history = context[:conversation_history] || []
user_idx = history.each_index.select { |i| history[i][:role] == "user" }
sets = user_idx.each_with_index.map do |start, k|
  finish = user_idx[k + 1] || history.length
  history[(start + 1)...finish].map { |r| r[:method_name].to_s }.reject(&:empty?).uniq
end
shared = sets.empty? ? [] : sets.first.select { |m| sets.all? { |s| s.include?(m) } }
message = shared.empty? ? "no method is called in every user turn" : "called in all #{sets.size} turns: #{shared.sort.join(', ')}"
Agent::Outcome.ok(message)
