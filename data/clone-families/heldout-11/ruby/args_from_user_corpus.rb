history = context[:conversation_history] || []
corpus = +""
matches = {}
history.each do |rec|
  corpus << rec[:content].to_s << "\n" if rec[:role] == "user"
  name = rec[:method_name]
  next if name.nil? || name == "" || rec[:role] == "user"
  values = (rec[:args] || []).grep(String).reject(&:empty?)
  quoted = values.select { |v| corpus.include?(v) }
  matches[rec[:call_id]] = quoted unless quoted.empty?
end
{ calls_using_user_text: matches.keys, args: matches }
