def split_turns(records)
  turns = []
  records.each do |r|
    if r[:role] == "user"
      turns << []
    elsif turns.any?
      turns.last << r
    end
  end
  turns
end

history = context[:conversation_history] || []
counts = Hash.new(0)
split_turns(history).each do |turn|
  sigs = turn.reject { |r| r[:method_name].nil? || r[:method_name] == "" }
             .map { |r| "#{r[:method_name]}(#{(r[:args] || []).inspect})" }
             .uniq
  sigs.each { |s| counts[s] += 1 }
end
again = counts.select { |_, n| n > 1 }
again.empty? ? "nothing was recomputed across turns" : again.map { |sig, n| "#{sig} in #{n} turns" }.join("\n")
