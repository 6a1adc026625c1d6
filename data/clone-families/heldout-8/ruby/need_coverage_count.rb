history = context[:conversation_history] || []
with_need = history.count { |r| !r[:need].to_s.empty? }
history.empty? ? nil : with_need.to_f / history.size
