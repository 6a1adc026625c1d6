replies = (context[:conversation_history] || []).select { |h| h[:role] == "assistant" }
tags = replies.flat_map { |h| h[:content].to_s.scan(/^```([A-Za-z0-9]+)/).flatten }
Agent::Outcome.ok(tags.tally.sort_by { |lang, n| [-n, lang] }.to_h)
