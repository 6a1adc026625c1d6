records = context[:conversation_history] || []
found = {}
records.reverse_each { |r| found[r[:method_name]] ||= r[:outcome_summary][:summary] if r[:outcome_summary][:status] == "ok" }
found.sort.map { |m, s| "#{m}: #{s}" }.join("\n")
