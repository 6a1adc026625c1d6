require "set"

records = context[:conversation_history] || []
seen = Set.new
ordered = []
records.each do |r|
  r[:content].to_s.scan(%r{(?:[\w.\-]+/)+[\w\-]+\.[A-Za-z0-9]+}) do |hit|
    ordered << hit if seen.add?(hit)
  end
end
{ files: ordered, count: ordered.size }
