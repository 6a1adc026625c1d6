limit_note = "search covers the whole history"
term = kwargs.fetch(:query, "").to_s
log = context[:conversation_history] || []
found = log.find_all do |h|
  body = h[:content]
  body && body.to_s.downcase.index(term.downcase)
end
result = { term: term, call_ids: found.collect { |h| h[:call_id] }, note: limit_note }
