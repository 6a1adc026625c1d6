pending = []
(context[:conversation_history] || []).reverse_each do |r|
  break if r[:speaker] == "assistant"
  pending.unshift(r[:content]) if r[:speaker] == "user"
end
pending.empty? ? "nothing waiting for a reply" : pending.join("\n")
