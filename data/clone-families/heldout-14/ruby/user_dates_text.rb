user_texts = (context[:conversation_history] || []).filter_map { |r| r[:content] if r[:role] == "user" }
dates = user_texts.flat_map { |t| t.to_s.scan(/\b\d{4}-\d\d-\d\d\b/) }.tally
dates.empty? ? "The user mentioned no dates." : dates.map { |d, n| "#{d} (x#{n})" }.join(", ")
