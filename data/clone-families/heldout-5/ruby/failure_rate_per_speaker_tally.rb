recs = context[:conversation_history] || []
all = recs.map { |r| r[:speaker] }.tally
bad = recs.reject { |r| r[:outcome_summary][:ok] }.map { |r| r[:speaker] }.tally
all.keys.sort.map { |s| [s, (bad[s] || 0).to_f / all[s], all[s]] }
