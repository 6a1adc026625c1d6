calls = (context[:conversation_history] || []).select { |c| c[:method_name].to_s != "" }
by_method = calls.group_by { |c| c[:method_name] }
clean = by_method.select { |_, recs| recs.all? { |c| c[:outcome_summary][:ok] == true } }
clean.keys.sort.to_h { |m| [m, clean[m].size] }
