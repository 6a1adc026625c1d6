history = context[:conversation_history] || []
empty_ones = history.select { |h| h[:content].to_s.strip == "" }
by_role = empty_ones.map { |h| h[:role] }.tally.sort_by { |role, n| [-n, role.to_s] }
lines = by_role.map { |role, n| "#{role}: #{n} empty" }
lines.empty? ? "every record has content" : lines.join("\n")
