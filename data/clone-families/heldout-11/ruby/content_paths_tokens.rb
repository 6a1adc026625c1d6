FILE_TOKEN = %r{\A(?:[\w.-]+/)+[\w-]+\.[A-Za-z0-9]+\z}

def candidate_tokens(text)
  text.split(/\s+/).map { |tok| tok.gsub(/\A[("'`\[]+|[)"'`\],;:!?.]+\z/, "") }
end

log = context[:conversation_history] || []
found = []
log.each do |entry|
  next if entry[:content].nil? || entry[:content].strip.empty?
  candidate_tokens(entry[:content]).each do |tok|
    found << tok if tok.match?(FILE_TOKEN) && !found.include?(tok)
  end
end
found
