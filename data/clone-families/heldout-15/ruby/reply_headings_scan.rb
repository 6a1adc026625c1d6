replies = (context[:conversation_history] || []).select { |r| r[:role] == "assistant" && r[:content].is_a?(String) }
found = replies.to_h { |r| [r[:call_id], r[:content].scan(/^\#{1,6}[ \t]+(.*\S)/).flatten.map(&:strip)] }
Agent::Outcome.ok(found.reject { |_id, titles| titles.empty? })
