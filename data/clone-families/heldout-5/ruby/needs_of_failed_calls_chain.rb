(context[:conversation_history] || []).select { |r| r[:outcome_summary][:status] == "error" }.map { |r| r[:need] }.compact.reject(&:empty?).uniq
