ISSUE_KEY = /\b[A-Z][A-Z0-9]+-\d+\b/

records = context.fetch(:conversation_history, nil) || []
mentions = records.each_with_object(Hash.new(0)) do |rec, acc|
  next unless rec[:content].is_a?(String)

  rec[:content].scan(ISSUE_KEY).each { |k| acc[k] += 1 }
end
mentions.sort_by { |key, n| [-n, key] }.map { |key, n| { issue: key, mentions: n } }
