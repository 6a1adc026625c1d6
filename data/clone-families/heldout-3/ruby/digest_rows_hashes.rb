hist = context[:conversation_history]
hist = [] if hist.nil?
result = hist.map { |h| { at: h[:timestamp], who: h[:speaker], call: h[:method_name], status: h[:outcome_summary]&.dig(:status) } }
