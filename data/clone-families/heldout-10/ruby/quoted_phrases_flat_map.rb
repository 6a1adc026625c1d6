records = context[:conversation_history] || []
user_texts = records.select { |r| r[:role] == "user" }.map { |r| r[:content] || "" }
Agent::Outcome.ok(user_texts.flat_map { |t| t.scan(/"([^"]+)"/).flatten }.uniq)
