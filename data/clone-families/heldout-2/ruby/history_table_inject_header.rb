hist = context[:conversation_history] || []
body = hist.inject([]) do |acc, h|
  acc << [h[:timestamp], h[:speaker], h[:method_name] || h[:content], h.dig(:outcome_summary, :summary)].compact.join(" | ")
end
result = "#{hist.size} records\n" + body.join("\n")
