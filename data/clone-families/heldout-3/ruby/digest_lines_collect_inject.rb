records = context[:conversation_history] || []
rows = records.collect { |r| [r[:speaker], r[:method_name], (r[:outcome_summary] || {})[:status]].compact.join(" | ") }
result = rows.inject("") { |acc, line| acc.empty? ? line : acc + "\n" + line }
