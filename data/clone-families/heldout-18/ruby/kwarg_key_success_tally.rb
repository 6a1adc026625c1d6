history = Array(context[:conversation_history])
finished = history.reject { |r| r[:method_name].nil? || r[:method_name] == "" }
                  .select { |r| r[:kwargs].is_a?(Hash) && [true, false].include?((r[:outcome_summary] || {})[:ok]) }
seen = finished.flat_map { |r| r[:kwargs].keys.map(&:to_s) }.tally
passed = finished.select { |r| r[:outcome_summary][:ok] }.flat_map { |r| r[:kwargs].keys.map(&:to_s) }.tally
seen.to_h { |key, n| [key, passed.fetch(key, 0).fdiv(n)] }
