def string_args(rec)
  args = rec[:args]
  return [] unless args.is_a?(Array)
  args.select { |a| a.is_a?(String) && a.length.positive? }
end

log = context[:conversation_history] || []
heard = []
notes = []
log.each do |entry|
  if entry[:role] == "user"
    heard << entry[:content] if entry[:content]
  elsif entry[:method_name] && !entry[:method_name].empty?
    hit = string_args(entry).find { |arg| heard.any? { |msg| msg.include?(arg) } }
    notes << "#{entry[:call_id]} #{entry[:method_name]} used #{hit.inspect} from the user" if hit
  end
end
Agent::Outcome.ok(notes.empty? ? "no call reused user wording" : notes.join("\n"))
