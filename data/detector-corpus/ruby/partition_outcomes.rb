ok, failed = (context[:conversation_history] || []).partition { |r| r.dig(:outcome_summary, :ok) }
result = { ok: ok.size, failed: failed.map { |r| r[:method_name] } }
