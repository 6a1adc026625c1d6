history = context[:conversation_history] || []
recent = history.last(10)
span = recent.empty? ? nil : [recent.first[:timestamp], recent.last[:timestamp]]
result = { span: span, summaries: recent.filter_map { |r| r.dig(:outcome_summary, :summary) } }
