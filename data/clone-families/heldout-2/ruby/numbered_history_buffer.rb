out = +""
(context[:conversation_history] || []).each_with_index do |entry, i|
  label = entry[:method_name] || entry[:content]
  status = entry[:outcome_summary] ? entry[:outcome_summary][:status] : "-"
  out << "#{i + 1}. [#{entry[:speaker]}] #{label} (#{status})\n"
end
result = out.strip.empty? ? "History is empty." : out.strip
