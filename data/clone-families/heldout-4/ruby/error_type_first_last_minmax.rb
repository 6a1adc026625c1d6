log = context[:conversation_history] || []
stamps = Hash.new { |h, k| h[k] = [] }
log.each { |e| (t = e[:outcome_summary] && e[:outcome_summary][:error_type]) && stamps[t] << e[:timestamp] }
stamps.map { |t, list| "#{t}: first #{list.min}, last #{list.max}" }.join("\n")
